package platform

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

// SecretSpec is one installation secret: the environment variable it stands in for and the
// number of random bytes whose standard base64 is its value.
type SecretSpec struct {
	Env   string
	Bytes int
}

// EnsureSecret returns the stored value of s, storing a new random one first when
// there is none. Two instances starting at once both insert with ON
// CONFLICT DO NOTHING and then read the one row that won.
func EnsureSecret(ctx context.Context, client *ent.Client, s SecretSpec) (string, error) {
	sctx := system.Allow(ctx, "installsecrets.ensure")
	b := make([]byte, s.Bytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("platform: secret generate %s: %w", s.Env, err)
	}
	err := client.InstallationSecret.Create().SetName(s.Env).SetValue(base64.StdEncoding.EncodeToString(b)).
		OnConflictColumns(installationsecret.FieldName).DoNothing().Exec(sctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) { // DO NOTHING skipped the insert
		return "", fmt.Errorf("platform: secret store %s: %w", s.Env, err)
	}
	row, err := client.InstallationSecret.Query().Where(installationsecret.Name(s.Env)).Only(sctx)
	if err != nil {
		return "", fmt.Errorf("platform: secret read %s: %w", s.Env, err)
	}
	return row.Value, nil
}
