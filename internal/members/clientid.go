package members

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/system"
)

// ClientIDPrefix starts the client ids the platform assigns (C-0001, ...);
// venues that import their own ids keep them.
const ClientIDPrefix = "C-"

// lockVenue takes the venue's join lock for the rest of the transaction.
func lockVenue(ctx context.Context, client *ent.Client, org uuid.UUID) error {
	rows, err := client.QueryContext(system.RawSQL(ctx, "join.client_id"), `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
		"join:"+org.String())
	if err != nil {
		return fmt.Errorf("members: join lock: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// nextClientID returns the venue's next platform client id: one more than
// the highest C-number in use. It must run under lockVenue.
func nextClientID(ctx context.Context, client *ent.Client, org uuid.UUID) (string, error) {
	rows, err := client.QueryContext(system.RawSQL(ctx, "join.client_id"), `SELECT COALESCE(MAX(substring(client_display_id FROM 3)::bigint), 0)
		FROM members WHERE organization_id = $1 AND client_display_id ~ '^C-[0-9]{1,12}$'`, org)
	if err != nil {
		return "", fmt.Errorf("members: join client id: %w", err)
	}
	defer rows.Close()
	var n int64
	if rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return "", fmt.Errorf("members: join client id: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("members: join client id: %w", err)
	}
	return fmt.Sprintf("%s%04d", ClientIDPrefix, n+1), nil
}
