// Package platform owns the platform-wide switches stored in PlatformSetting
// rows, first of all the emergency kill switch (key "kill_switch"): while it
// is on, every API-key request is refused on every server instance.
//
// Reading a switch needs no viewer (the PlatformSetting policy allows reads);
// changing one is the named system call site "platform.killswitch", because
// no venue viewer may change a platform-wide setting.
//
// It also gives an installation its secrets (EnsureSecret) when the flags and
// environment do not set them. The token signing key, the code pepper, the
// cursor secret and the webhook sealing key must be the same on every
// instance and after every restart: sessions, refresh tokens, MFA factors,
// emailed codes, cursors and sealed webhook secrets depend on them. Which
// settings these are is package config's (Setting.InstallBytes); for one the
// configuration leaves empty, the server fills its typed configuration with
// EnsureSecret: the value kept in the database (table installation_secrets),
// generated and stored the first time (concurrent first starts agree on one
// value). That is the named system site "installsecrets.ensure".
package platform
