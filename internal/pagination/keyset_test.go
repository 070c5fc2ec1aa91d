package pagination_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/alert"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// alertPage is one page of a newest-first keyset list, as a handler would
// read it: limit+1 rows after the cursor's (created_at, id).
func alertPage(ctx context.Context, c *ent.Client, s *pagination.Signer, after string, limit int) ([]*ent.Alert, pagination.CursorMeta, error) {
	q := c.Alert.Query().Order(ent.Desc(alert.FieldCreatedAt), ent.Desc(alert.FieldID)).Limit(limit + 1)
	var k pagination.TimeID
	ok, err := s.After("alerts", after, &k)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	if ok {
		q.Where(alert.Or(alert.CreatedAtLT(k.At), alert.And(alert.CreatedAt(k.At), alert.IDLT(k.ID))))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	return pagination.Next(s, "alerts", rows, limit, func(a *ent.Alert) any {
		return pagination.TimeID{At: a.CreatedAt, ID: a.ID}
	})
}

// TestKeysetOverPostgres walks a venue's alerts page by page, with many rows
// sharing a timestamp, and sees each row exactly once, in order.
func TestKeysetOverPostgres(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Keyset", Slug: "keyset"})
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
	base := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	const total = 47
	for i := range total {
		// Seven rows per instant, and sub-microsecond parts PostgreSQL drops.
		at := base.Add(time.Duration(i/7)*time.Second + 123456789)
		_, err := client.Alert.Create().SetTitle(fmt.Sprintf("alert %d", i)).SetCreatedAt(at).Save(op)
		require.NoError(t, err)
	}
	want, err := client.Alert.Query().Order(ent.Desc(alert.FieldCreatedAt), ent.Desc(alert.FieldID)).IDs(op)
	require.NoError(t, err)
	require.Len(t, want, total)

	s := pagination.NewSigner(secret)
	for _, limit := range []int{1, 3, 7, 10, 46, 47, 100} {
		var got []uuid.UUID
		after := ""
		for pages := 0; ; pages++ {
			require.Less(t, pages, total+1, "the walk ends")
			rows, meta, err := alertPage(op, client, s, after, limit)
			require.NoError(t, err)
			require.LessOrEqual(t, len(rows), limit)
			for _, r := range rows {
				got = append(got, r.ID)
			}
			if !meta.HasMore {
				require.Nil(t, meta.NextCursor)
				break
			}
			after = *meta.NextCursor
		}
		require.Equal(t, want, got, "limit %d", limit)
	}

	// A cursor of this list is refused by another list of the same signer.
	_, meta, err := alertPage(op, client, s, "", 5)
	require.NoError(t, err)
	var k pagination.TimeID
	requireValidation(t, s.Decode("payments", *meta.NextCursor, &k), "after")
}
