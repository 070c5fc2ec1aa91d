// Package codemail delivers the one-time codes of the sign-in flows (password
// reset and account claim, password change, mobile e-mail sign-in): it is the
// accounts.CodeSink the server runs with.
//
// With an SMTP server configured (VENUE_SMTP_*, package notify) each code is
// e-mailed in the background, on a context detached from the request and
// bounded by SendTimeout, so an answer's timing never depends on whether the
// address has an account or on the mail server. Without one (development)
// each message is written as a file into a mail folder (VENUE_MAIL_DIR,
// default <data-dir>/mail), readable by its owner only.
//
// The code never reaches a log line or an error: logs carry the user id, the
// purpose and, for files, the path.
package codemail
