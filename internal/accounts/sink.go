package accounts

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"
)

// Purposes of emailed codes.
const (
	PurposePasswordReset  = "password_reset"
	PurposePasswordChange = "password_change"
)

// Delivery is one code to send to a user's email.
type Delivery struct {
	UserID  uuid.UUID
	Email   string
	Purpose string
	Code    string
	// TokenHash is the link token of a mobile sign-in with PKCE ("" otherwise).
	TokenHash string
	ExpiresAt time.Time
}

// CodeSink sends codes to users. Implementations must never log the code.
type CodeSink interface {
	SendCode(ctx context.Context, d Delivery) error
}

// LogSink records that a code was sent, to whom (the user id) and why, and
// drops the code: the default of a Service built without a sink. The server
// wires package codemail (SMTP, or message files in the mail folder).
type LogSink struct{ Log *slog.Logger }

// SendCode implements CodeSink.
func (s LogSink) SendCode(ctx context.Context, d Delivery) error {
	if s.Log != nil {
		s.Log.InfoContext(ctx, "code sent", "user_id", d.UserID, "purpose", d.Purpose)
	}
	return nil
}
