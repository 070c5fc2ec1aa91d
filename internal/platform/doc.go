// Package platform owns the platform-wide switches stored in PlatformSetting
// rows, first of all the emergency kill switch (key "kill_switch"): while it
// is on, every API-key request is refused on every server instance.
//
// Reading a switch needs no viewer (the PlatformSetting policy allows reads);
// changing one is the named system call site "platform.killswitch", because
// no venue viewer may change a platform-wide setting.
package platform
