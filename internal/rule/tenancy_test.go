package rule_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestEveryEntityIsVenueOwnedOrDeclaredGlobal: a new entity must either
// carry the venue mixin or be declared global, with its reason, in the
// registry of package system.
func TestEveryEntityIsVenueOwnedOrDeclaredGlobal(t *testing.T) {
	globals := system.Globals()
	for typ := range globals {
		require.Contains(t, ent.AllTypes, typ, "declared global but not an entity")
	}
	for _, typ := range ent.AllTypes {
		owned := slices.Contains(ent.VenueOwnedTypes, typ)
		_, global := globals[typ]
		require.True(t, owned != global, "%s must be venue-owned (VenueMixin) or declared global", typ)
		if owned {
			target, ok := ent.EdgeTarget(typ, "organization")
			require.True(t, ok && target == "Organization", "%s lacks the VenueMixin's organization edge", typ)
			_, covered := cases[typ]
			require.True(t, covered, "%s has no tenancy case", typ)
		}
	}
}

// noReferences are the types whose rows reference no other venue row.
var noReferences = []string{"Alert", "APIKey", "AuditLog", "Event", "FeatureProvisioning", "Location", "Instructor",
	"AddonProduct"}

// TestVenueWall runs, for every venue-owned type, the five operations from
// venue A against venue B's rows (each must fail as not found and leave B's
// row as it was) and against A's own rows (each must succeed).
func TestVenueWall(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	a := newWorld(t, client, "venue-a")
	b := newWorld(t, client, "venue-b")

	for _, typ := range ent.VenueOwnedTypes {
		tc := cases[typ]
		t.Run(typ, func(t *testing.T) {
			foreign, own := b.ids[typ], a.ids[typ]
			require.NotEqual(t, uuid.Nil, foreign)

			// Read: by id and by listing.
			require.True(t, ent.IsNotFound(tc.get(a.ctx, client, foreign)), "read of B's row")
			require.NoError(t, tc.get(a.ctx, client, own))
			n, err := client.CountVisible(a.ctx, typ, []uuid.UUID{foreign, own})
			require.NoError(t, err)
			require.Equal(t, 1, n, "a listing from A sees only A's row")

			// Update.
			err = tc.update(a.ctx, client, foreign)
			if tc.appendOnly {
				require.Error(t, err)
			} else {
				require.True(t, ent.IsNotFound(err), "update of B's row: %v", err)
				require.NoError(t, tc.update(a.ctx, client, own))
			}

			// Create: naming B as the venue, and referencing B's rows.
			_, err = tc.create(a.ctx, client, b, a)
			require.True(t, ent.IsNotFound(err), "create in B's venue: %v", err)
			if !slices.Contains(noReferences, typ) {
				_, err = tc.create(a.ctx, client, nil, b)
				require.True(t, ent.IsNotFound(err), "create referencing B's rows: %v", err)
			}
			fresh, err := tc.create(a.ctx, client, nil, a)
			require.NoError(t, err, "create in A")
			fresh2, err := tc.create(a.ctx, client, a, a)
			if typ != "FeatureProvisioning" && typ != "VenuePayments" && typ != "RenewalReminderPolicy" { // one row per venue
				require.NoError(t, err, "create in A naming A")
			} else {
				require.NoError(t, err)
				fresh = fresh2
			}

			// Attach B's rows by edge to A's row.
			if tc.attach != nil {
				err := tc.attach(a.ctx, client, fresh, b)
				require.True(t, ent.IsNotFound(err), "attach B's rows: %v", err)
				// Attaching A's own rows passes the wall; a one-to-many
				// edge may still refuse a child that already has a parent.
				if err := tc.attach(a.ctx, client, fresh, a); err != nil {
					require.True(t, ent.IsConstraintError(err), "attach A's rows: %v", err)
				}
			}

			// Delete.
			err = tc.delete(a.ctx, client, foreign)
			if tc.appendOnly {
				require.Error(t, err)
			} else {
				require.True(t, ent.IsNotFound(err), "delete of B's row: %v", err)
				require.NoError(t, tc.delete(a.ctx, client, fresh))
			}

			// B's row is still there, seen from B.
			require.NoError(t, tc.get(b.ctx, client, foreign))
		})
	}
}

// TestNoViewerNoData: without a viewer, venue-owned data is neither read nor written.
func TestNoViewerNoData(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	a := newWorld(t, client, "venue-a")
	ctx := context.Background()
	for _, typ := range ent.VenueOwnedTypes {
		_, err := client.CountVisible(ctx, typ, []uuid.UUID{a.ids[typ]})
		require.Error(t, err, typ)
	}
	_, err := client.Alert.Create().SetTitle("x").SetOrganizationID(a.org).Save(ctx)
	require.Error(t, err)
	// A public visitor of the venue reads but never writes.
	pub := viewer.NewContext(ctx, viewer.Public{Org: a.org})
	require.NoError(t, cases["Alert"].get(pub, client, a.ids["Alert"]))
	_, err = client.Alert.Create().SetTitle("x").Save(pub)
	require.Error(t, err)
	require.Error(t, client.Alert.UpdateOneID(a.ids["Alert"]).SetResolved(true).Exec(pub))
}
