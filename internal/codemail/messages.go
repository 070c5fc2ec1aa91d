package codemail

import (
	"fmt"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/accounts"
)

// message is the text of one e-mailed code.
type message struct {
	subject string
	body    string
}

// compose writes the message of d in plain English: what the code is for, the
// code, when it expires (UTC) and, for a mobile sign-in with PKCE, the token
// hash the app link uses.
func compose(d accounts.Delivery) message {
	var subject, intro, ignore string
	switch d.Purpose {
	case accounts.PurposePasswordReset:
		subject = "Your password reset code"
		intro = "Someone asked to reset the password of the account that uses this e-mail address.\n" +
			"Enter this code to choose a new password:"
		ignore = "If your account was set up for you by a venue, the same code lets you claim it\n" +
			"and choose your first password.\n\n" +
			"If you did not ask for this, ignore this e-mail: your password stays as it is."
	case accounts.PurposePasswordChange:
		subject = "Your code to change your password"
		intro = "You asked to change the password of your account.\nEnter this code to confirm the change:"
		ignore = "If you did not ask for this, someone may be signed in to your account:\n" +
			"do not share the code, and reset your password with \"Forgot password\"."
	case accounts.PurposeEmailOTP:
		subject = "Your sign-in code"
		intro = "Enter this code in the app to sign in:"
		ignore = "If you did not try to sign in, ignore this e-mail."
	default:
		subject = "Your verification code"
		intro = "Enter this code to continue:"
		ignore = "If you did not ask for this, ignore this e-mail."
	}
	var b strings.Builder
	b.WriteString("Hello,\n\n")
	b.WriteString(intro)
	fmt.Fprintf(&b, "\n\n    %s\n\n", d.Code)
	if !d.ExpiresAt.IsZero() {
		fmt.Fprintf(&b, "The code works once and expires at %s.\n\n", expiryLine(d.ExpiresAt))
	}
	if d.TokenHash != "" {
		fmt.Fprintf(&b, "If you started the sign-in in the app on this device, the app link uses this token hash:\n\n    %s\n\n", d.TokenHash)
	}
	b.WriteString(ignore)
	b.WriteString("\n")
	return message{subject: subject, body: b.String()}
}

// expiryLine is how a message shows an expiry: minutes, in UTC.
func expiryLine(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 MST") }
