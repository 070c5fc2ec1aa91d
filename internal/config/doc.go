// Package config owns the service's configuration: one table of setting
// definitions (Settings: name, flag, environment variable, default,
// description, whether it is a secret) drives the parser, the --help of the
// commands and the README's configuration table, and Load turns flags and
// environment into one typed Config at start. The installation's secrets
// (settings the database keeps when the environment leaves them unset) are
// filled in by FillSecrets once the database is reachable.
//
// Precedence is flag, then environment variable, then installation secret,
// then default; an empty variable counts as unset. Only this package and the
// main packages read the process environment (an architecture test holds the
// rest of the repository to it): every other package takes the typed part it
// needs (SMTP, Webhooks, Tokens, ...) as a value from the command that
// started it.
package config
