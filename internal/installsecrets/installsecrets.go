// Package installsecrets gives an installation its secrets when the flags
// and environment do not set them. The token signing key, the code pepper,
// the cursor secret and the webhook sealing key must be the same on every
// instance and after every restart: sessions, refresh tokens, MFA factors,
// emailed codes, cursors and sealed webhook secrets depend on them. Which
// settings these are is package config's (Setting.InstallBytes); for one the
// configuration leaves empty, the server fills its typed configuration with
// Ensure: the value kept in the database (table installation_secrets),
// generated and stored the first time (concurrent first starts agree on one
// value).
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
