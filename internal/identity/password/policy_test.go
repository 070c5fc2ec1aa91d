package password_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/password"
)

func TestCheckPolicy(t *testing.T) {
	for _, tc := range []struct {
		name, pw string
		reason   string
		sentinel error
	}{
		{name: "ten ascii", pw: "abcdefghij"},
		{name: "passphrase", pw: "correct horse battery staple"},
		{name: "128 chars", pw: strings.Repeat("a", 128)},
		{name: "inner spaces count", pw: "a        b"},
		{name: "multibyte counts characters", pw: strings.Repeat("ü", 10)},
		{name: "emoji", pw: strings.Repeat("🔑", 10)},
		{name: "empty", pw: "", reason: password.ReasonTooShort, sentinel: password.ErrTooShort},
		{name: "nine", pw: "abcdefghi", reason: password.ReasonTooShort, sentinel: password.ErrTooShort},
		{name: "nine decomposed chars are nine", pw: strings.Repeat("e\u0301", 9), reason: password.ReasonTooShort, sentinel: password.ErrTooShort},
		{name: "129 chars", pw: strings.Repeat("a", 129), reason: password.ReasonTooLong, sentinel: password.ErrTooLong},
		{name: "128 multibyte chars", pw: strings.Repeat("ü", 128)},
		{name: "129 multibyte chars", pw: strings.Repeat("ü", 129), reason: password.ReasonTooLong, sentinel: password.ErrTooLong},
		{name: "huge", pw: strings.Repeat("a", 1<<20), reason: password.ReasonTooLong, sentinel: password.ErrTooLong},
		{name: "spaces", pw: strings.Repeat(" ", 12), reason: password.ReasonBlank, sentinel: password.ErrBlank},
		{name: "mixed white space", pw: " \t\n\r \u00a0\u2003\u3000   ", reason: password.ReasonBlank, sentinel: password.ErrBlank},
		{name: "zero-width", pw: strings.Repeat("\u200b", 12), reason: password.ReasonBlank, sentinel: password.ErrBlank},
		{name: "invalid utf-8", pw: "abcdefghij\xff", reason: password.ReasonInvalidUTF8, sentinel: password.ErrInvalidUTF8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := password.CheckPolicy("new_password", tc.pw)
			if tc.sentinel == nil {
				require.NoError(t, err)
				return
			}
			var pe *password.PolicyError
			require.True(t, errors.As(err, &pe), "want a *PolicyError, got %v", err)
			require.Equal(t, "new_password", pe.Field)
			require.Equal(t, tc.reason, pe.Reason)
			require.ErrorIs(t, err, tc.sentinel)
			if tc.pw != "" {
				require.NotContains(t, err.Error(), tc.pw, "the message never quotes the password")
			}
		})
	}
}
