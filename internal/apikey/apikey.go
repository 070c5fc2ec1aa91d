// Package apikey issues, lists, revokes and verifies organization-scoped API
// keys. A key looks like `vk_<prefix>_<secret>`; only the prefix (for lookup)
// and a SHA-256 hash of the whole key are stored. The secret is 240 bits of
// randomness, so a fast hash is enough and a lookup costs one indexed read.
package apikey

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entkey "github.com/venueplatform/venue/ent/apikey"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

const (
	alphabet  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	prefixLen = 10
	secretLen = 40
)

// Errors of the package.
var (
	// ErrInvalid means the key is malformed, unknown or revoked.
	ErrInvalid = errors.New("invalid api key")
	// ErrCreatorRequired means a key with a write scope lacks a creating staff identity.
	ErrCreatorRequired = errors.New("a key with a write: scope needs --created-by, a staff email of the venue")
	// ErrCreatorUnknown means the creating staff email is not staff of the venue.
	ErrCreatorUnknown = errors.New("created-by is not a staff member of this venue")
)

// Issued is a newly created key; Secret is the whole key, shown once.
type Issued struct {
	Key    *ent.APIKey
	Secret string
}

// CreateParams describes a key to issue.
type CreateParams struct {
	Name   string
	Scopes []string
	// CreatedBy is the email of the staff member issuing the key (required
	// for keys with a write scope).
	CreatedBy string
}

// Create issues a key in the venue of the viewer of ctx.
func Create(ctx context.Context, client *ent.Client, p CreateParams) (*Issued, error) {
	for _, s := range p.Scopes {
		if !scope.Valid(s) {
			return nil, fmt.Errorf("unknown scope %q", s)
		}
	}
	if len(p.Scopes) == 0 {
		return nil, errors.New("no scopes given")
	}
	needsCreator := false
	for _, s := range p.Scopes {
		needsCreator = needsCreator || scope.IsWrite(s)
	}
	create := client.APIKey.Create().SetName(p.Name).SetScopes(p.Scopes)
	if p.CreatedBy != "" {
		org, _ := viewer.VenueFromContext(ctx)
		u, err := client.User.Query().
			Where(user.EmailEQ(strings.ToLower(p.CreatedBy)), user.HasMembersWith(
				member.OrganizationID(org), member.RoleIn(member.RoleStaff, member.RoleOwner), member.StatusEQ(member.StatusActive))).
			Only(ctx)
		if ent.IsNotFound(err) {
			return nil, ErrCreatorUnknown
		}
		if err != nil {
			return nil, fmt.Errorf("find creator: %w", err)
		}
		create.SetCreatedByUserID(u.ID).SetCreatedByEmail(u.Email)
	} else if needsCreator {
		return nil, ErrCreatorRequired
	}
	prefix, err := randomString(prefixLen)
	if err != nil {
		return nil, err
	}
	secret, err := randomString(secretLen)
	if err != nil {
		return nil, err
	}
	full := "vk_" + prefix + "_" + secret
	k, err := create.SetPrefix(prefix).SetSecretHash(hash(full)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("save key: %w", err)
	}
	return &Issued{Key: k, Secret: full}, nil
}

// List returns the keys of the viewer's venue, newest first.
func List(ctx context.Context, client *ent.Client) ([]*ent.APIKey, error) {
	return client.APIKey.Query().Order(ent.Desc(entkey.FieldCreatedAt)).All(ctx)
}

// Revoke revokes a key at once. Revoking a revoked key keeps the first time.
func Revoke(ctx context.Context, client *ent.Client, id uuid.UUID) (*ent.APIKey, error) {
	k, err := client.APIKey.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if k.RevokedAt != nil {
		return k, nil
	}
	return k.Update().SetRevokedAt(time.Now().UTC()).Save(ctx)
}

// Lookup finds the live key for a presented secret. It is a system call site:
// the key itself says which venue the request belongs to.
func Lookup(ctx context.Context, client *ent.Client, presented string) (*ent.APIKey, error) {
	prefix, ok := parse(presented)
	if !ok {
		return nil, ErrInvalid
	}
	// System call site: before authentication there is no venue to filter by;
	// the row is matched by prefix and then by a constant-time hash comparison.
	sctx := system.Allow(ctx, "apikey.lookup")
	k, err := client.APIKey.Query().Where(entkey.PrefixEQ(prefix)).Only(sctx)
	if ent.IsNotFound(err) {
		return nil, ErrInvalid
	}
	if err != nil {
		return nil, fmt.Errorf("lookup key: %w", err)
	}
	if subtle.ConstantTimeCompare(k.SecretHash, hash(presented)) != 1 || k.RevokedAt != nil {
		return nil, ErrInvalid
	}
	return k, nil
}

// Viewer returns the viewer a request authenticated by k acts as.
func Viewer(k *ent.APIKey) viewer.APIKey {
	v := viewer.APIKey{Org: k.OrganizationID, KeyID: k.ID, Name: k.Name, Scopes: k.Scopes, CreatedBy: k.CreatedByUserID}
	if k.CreatedByEmail != nil {
		v.CreatedByEmail = *k.CreatedByEmail
	}
	return v
}

// Touch records that k was used, at most once a minute, so a busy key does
// not write on every request.
func Touch(ctx context.Context, client *ent.Client, k *ent.APIKey) error {
	now := time.Now().UTC()
	if k.LastUsedAt != nil && now.Sub(*k.LastUsedAt) < time.Minute {
		return nil
	}
	// System call site: the key was just authenticated; only its own last-used time changes.
	sctx := system.Allow(ctx, "apikey.touch")
	return client.APIKey.UpdateOneID(k.ID).SetLastUsedAt(now).Exec(sctx)
}

func parse(presented string) (prefix string, ok bool) {
	parts := strings.Split(presented, "_")
	if len(parts) != 3 || parts[0] != "vk" || len(parts[1]) != prefixLen || len(parts[2]) != secretLen {
		return "", false
	}
	return parts[1], true
}

func hash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func randomString(n int) (string, error) {
	b := make([]byte, n)
	max := big.NewInt(int64(len(alphabet)))
	for i := range b {
		r, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", fmt.Errorf("random: %w", err)
		}
		b[i] = alphabet[r.Int64()]
	}
	return string(b), nil
}
