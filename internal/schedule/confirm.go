package schedule

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"sync"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/viewer"
)

// confirmTTL is how long a REWRITE preview's confirmation token is valid.
const confirmTTL = 10 * time.Minute

// confirmPrefix versions the token format.
const confirmPrefix = "hc1."

// processSecret stands in for a caller that gives no TokenSecret: random per
// process (a token then only works on the instance that issued it, until
// restart: the client previews again).
var processSecret = sync.OnceValue(func() []byte {
	s, _, _ := pagination.LoadSecret(func(string) string { return "" })
	return s
})

// confirmSecret keys the tokens: the service's signing secret for opaque
// client tokens (HistoryParams.TokenSecret, shared by its instances), else
// the process's, narrowed to this purpose.
func confirmSecret(p HistoryParams) []byte {
	s := p.TokenSecret
	if len(s) == 0 {
		s = processSecret()
	}
	mac := hmac.New(sha256.New, s)
	mac.Write([]byte("scheduling/history-confirmation"))
	return mac.Sum(nil)
}

// confirmToken is the confirmation token of the REWRITE p of class c by the
// caller of ctx, valid until exp: an HMAC over what the preview showed.
func confirmToken(ctx context.Context, c *ent.ClassInstance, p HistoryParams, exp time.Time) string {
	var e [8]byte
	binary.BigEndian.PutUint64(e[:], uint64(exp.Unix()))
	return confirmPrefix + base64.RawURLEncoding.EncodeToString(append(e[:], confirmMAC(ctx, c, p, exp)...))
}

func confirmMAC(ctx context.Context, c *ent.ClassInstance, p HistoryParams, exp time.Time) []byte {
	mac := hmac.New(sha256.New, confirmSecret(p))
	field := func(s string) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(s)))
		mac.Write(n[:])
		mac.Write([]byte(s))
	}
	t := func(v *time.Time) string {
		if v == nil {
			return "-"
		}
		return concurrency.Format(*v)
	}
	id := func(v interface{ String() string }, ok bool) string {
		if !ok {
			return "-"
		}
		return v.String()
	}
	var actor string
	if v := viewer.FromContext(ctx); v != nil {
		actor = v.Actor()
	}
	field(c.ID.String())
	field(concurrency.Format(c.UpdatedAt))
	field(p.Operation)
	field(t(p.Rewrite.StartTime))
	field(t(p.Rewrite.EndTime))
	field(id(p.Rewrite.InstructorID, p.Rewrite.InstructorID != nil))
	field(id(p.Rewrite.RoomID, p.Rewrite.RoomID != nil))
	field(concurrency.Format(p.EffectiveAt))
	field(actor)
	field(exp.UTC().Format(time.RFC3339))
	return mac.Sum(nil)
}

// checkConfirmToken verifies the token p carries for class c.
func checkConfirmToken(ctx context.Context, c *ent.ClassInstance, p HistoryParams, now time.Time) error {
	if p.Token == "" {
		return unprocessable(CodeConfirmRequired, "preview the rewrite first and send its history_confirmation_token").
			With("next_step", "preview")
	}
	invalid := unprocessable(CodeConfirmInvalid, "the confirmation token does not match this rewrite, or has expired; preview again").
		With("next_step", "preview")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(p.Token, confirmPrefix))
	if err != nil || !strings.HasPrefix(p.Token, confirmPrefix) || len(raw) != 8+sha256.Size {
		return invalid
	}
	exp := time.Unix(int64(binary.BigEndian.Uint64(raw[:8])), 0)
	if !now.Before(exp) {
		return invalid
	}
	if !hmac.Equal(raw[8:], confirmMAC(ctx, c, p, exp)) {
		return invalid
	}
	return nil
}
