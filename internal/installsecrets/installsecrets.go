// Package installsecrets gives an installation its secrets when the
// environment does not set them. The token signing key, the code pepper, the
// cursor secret and the webhook sealing key must be the same on every
// instance and after every restart: sessions, refresh tokens, MFA factors,
// emailed codes, cursors and sealed webhook secrets depend on them. A
// variable the environment sets wins; for one it leaves unset, Export takes
// the value kept in the database (table installation_secrets), generating and
// storing it the first time (concurrent first starts agree on one value), and
// sets the variable in the process environment, where the packages that use
// it read it.
package installsecrets

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/installationsecret"
	"github.com/venueplatform/venue/internal/system"
)

// Spec is one secret: the environment variable it stands in for and the
// number of random bytes whose standard base64 is its value.
type Spec struct {
	Env   string
	Bytes int
}

// Defaults are the installation's secrets. Each value is the base64 of
// random bytes: a 32-byte Ed25519 seed for the signing key, at least 32
// bytes for the pepper (the MFA key derives from it), a cursor secret of 64
// characters, a 32-byte AES-256 key for webhook secrets.
var Defaults = []Spec{
	{Env: "VENUE_JWT_SIGNING_KEY", Bytes: 32},
	{Env: "VENUE_CODE_PEPPER", Bytes: 32},
	{Env: "VENUE_CURSOR_SECRET", Bytes: 48},
	{Env: "VENUE_WEBHOOK_SECRET_KEY", Bytes: 32},
}

// Export sets every variable of specs that getenv finds empty to the
// installation's value through setenv, and returns the names it set.
func Export(ctx context.Context, client *ent.Client, specs []Spec, getenv func(string) string, setenv func(string, string) error) ([]string, error) {
	var set []string
	for _, s := range specs {
		if getenv(s.Env) != "" {
			continue
		}
		v, err := Ensure(ctx, client, s)
		if err != nil {
			return set, err
		}
		if err := setenv(s.Env, v); err != nil {
			return set, fmt.Errorf("installsecrets: set %s: %w", s.Env, err)
		}
		set = append(set, s.Env)
	}
	return set, nil
}

// Ensure returns the stored value of s, storing a new random one first when
// there is none. Two instances starting at once both insert with ON
// CONFLICT DO NOTHING and then read the one row that won.
func Ensure(ctx context.Context, client *ent.Client, s Spec) (string, error) {
	sctx := system.Allow(ctx, "installsecrets.ensure")
	b := make([]byte, s.Bytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("installsecrets: generate %s: %w", s.Env, err)
	}
	err := client.InstallationSecret.Create().SetName(s.Env).SetValue(base64.StdEncoding.EncodeToString(b)).
		OnConflictColumns(installationsecret.FieldName).DoNothing().Exec(sctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) { // DO NOTHING skipped the insert
		return "", fmt.Errorf("installsecrets: store %s: %w", s.Env, err)
	}
	row, err := client.InstallationSecret.Query().Where(installationsecret.Name(s.Env)).Only(sctx)
	if err != nil {
		return "", fmt.Errorf("installsecrets: read %s: %w", s.Env, err)
	}
	return row.Value, nil
}
