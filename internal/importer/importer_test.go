package importer_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/importer"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// env is a test database with one venue and an operator context in it.
type env struct {
	pool   *pgxpool.Pool
	client *ent.Client
	ctx    context.Context
}

func newEnv(t *testing.T) *env {
	t.Helper()
	pool := pgtest.NewPool(t)
	client := db.NewClient(pool)
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Studio", Slug: "studio"})
	require.NoError(t, err)
	return &env{pool: pool, client: client, ctx: viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})}
}

// tables are the tables an import writes.
var tables = []string{
	"brands", "locations", "rooms", "class_types", "instructors", "pass_types",
	"pass_type_allowed_brands", "class_instances", "users", "members", "passes",
	"bookings", "payments", "alerts",
	"opening_hours", "amenities", "photos", "addon_products", "gift_cards",
}

// rowCounts counts the rows of every table an import writes.
func (e *env) rowCounts(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, tbl := range tables {
		var n int
		require.NoError(t, e.pool.QueryRow(context.Background(), "SELECT count(*) FROM "+tbl).Scan(&n))
		out[tbl] = n
	}
	return out
}

func (e *env) importJSON(t *testing.T, doc string, opts importer.Options) (*importer.Result, error) {
	t.Helper()
	d, err := importer.Parse(strings.NewReader(doc))
	if err != nil {
		return nil, err
	}
	return importer.Import(e.ctx, e.client, d, opts)
}

func readFull(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/full.json")
	require.NoError(t, err)
	return string(b)
}

func TestImportRoundTrip(t *testing.T) {
	e := newEnv(t)
	res, err := e.importJSON(t, readFull(t), importer.Options{})
	require.NoError(t, err)
	require.Equal(t, map[string]int{
		"brands": 2, "locations": 2, "rooms": 3, "class_types": 2, "instructors": 2, "pass_types": 3,
		"classes": 3, "members": 3, "passes": 2, "bookings": 5, "payments": 2, "alerts": 1,
		"opening_hours": 0, "amenities": 0, "photos": 0, "addons": 0, "gift_cards": 0, "services": 0,
	}, res.Counts)
	require.Equal(t, res.Counts, res.Created)
	require.Len(t, res.IDs["rooms"], 3)

	counts := e.rowCounts(t)
	require.Equal(t, 3, counts["members"])
	require.Equal(t, 3, counts["users"])
	require.Equal(t, 2, counts["pass_type_allowed_brands"])

	c2, err := e.client.ClassInstance.Get(e.ctx, uuidOf(t, res, "classes", "c2"))
	require.NoError(t, err)
	require.Equal(t, 2, c2.Capacity, "capacity from the room")
	require.Equal(t, uuidOf(t, res, "locations", "l1"), *c2.LocationID, "location from the room")

	b4, err := e.client.Booking.Get(e.ctx, uuidOf(t, res, "bookings", "bk4"))
	require.NoError(t, err)
	require.Equal(t, "waitlisted", string(b4.Status))
	require.Equal(t, 1, *b4.WaitlistPosition)
	b3, err := e.client.Booking.Get(e.ctx, uuidOf(t, res, "bookings", "bk3"))
	require.NoError(t, err)
	require.Equal(t, "no-show", string(b3.Status))

	pt3, err := e.client.PassType.Get(e.ctx, uuidOf(t, res, "pass_types", "pt3"))
	require.NoError(t, err)
	require.Equal(t, "flexible_quantity", string(pt3.PricingMode))
	require.Equal(t, 12, pt3.FlexiblePricingConfig.MaximumQuantity)
	require.Equal(t, "flexible-membership", pt3.Slug)

	b2, err := e.client.Brand.Get(e.ctx, uuidOf(t, res, "brands", "b2"))
	require.NoError(t, err)
	require.Equal(t, "spin-kobenhavn", b2.Slug)

	p1, err := e.client.Pass.Get(e.ctx, uuidOf(t, res, "passes", "p1"))
	require.NoError(t, err)
	require.Equal(t, "2026-11-01", p1.ValidFrom.Format("2006-01-02"))
	require.Equal(t, "2027-04-30", p1.ValidTo.Format("2006-01-02"))

	pay2, err := e.client.Payment.Get(e.ctx, uuidOf(t, res, "payments", "pay2"))
	require.NoError(t, err)
	require.Equal(t, uuidOf(t, res, "members", "m2"), *pay2.MemberID, "member from the pass")

	m1, err := e.client.Member.Get(e.ctx, uuidOf(t, res, "members", "m1"))
	require.NoError(t, err)
	u, err := m1.QueryUser().Only(e.ctx)
	require.NoError(t, err)
	require.Equal(t, "astrid@example.com", u.Email)
	require.Equal(t, "imported_unclaimed", string(u.AccountState))
	require.Equal(t, "C-1001", *m1.ClientDisplayID)
}

func TestImportIsIdempotent(t *testing.T) {
	e := newEnv(t)
	first, err := e.importJSON(t, readFull(t), importer.Options{})
	require.NoError(t, err)
	before := e.rowCounts(t)
	second, err := e.importJSON(t, readFull(t), importer.Options{})
	require.NoError(t, err)
	require.Equal(t, first.IDs, second.IDs)
	require.Equal(t, first.Counts, second.Counts)
	for s, n := range second.Created {
		require.Zero(t, n, "created in %s on re-run", s)
	}
	require.Equal(t, before, e.rowCounts(t))

	// A changed document updates the same rows.
	changed := strings.NewReplacer(
		`"capacity": 20,`, `"capacity": 22,`,
		`"clips_remaining": 7`, `"clips_remaining": 6`,
		`"status": "no-show"`, `"status": "checked_in"`,
		`"amount_minor": 59900, "currency": "DKK", "status": "succeeded"`, `"amount_minor": 59900, "currency": "DKK", "status": "refunded"`,
		`"first_name": "Clara"`, `"first_name": "Klara"`,
	).Replace(readFull(t))
	third, err := e.importJSON(t, changed, importer.Options{})
	require.NoError(t, err)
	require.Equal(t, first.IDs, third.IDs)
	require.Equal(t, before, e.rowCounts(t))
	c1, err := e.client.ClassInstance.Get(e.ctx, uuidOf(t, third, "classes", "c1"))
	require.NoError(t, err)
	require.Equal(t, 22, c1.Capacity)
	p1, err := e.client.Pass.Get(e.ctx, uuidOf(t, third, "passes", "p1"))
	require.NoError(t, err)
	require.Equal(t, 6, *p1.ClipsRemaining)
	bk3, err := e.client.Booking.Get(e.ctx, uuidOf(t, third, "bookings", "bk3"))
	require.NoError(t, err)
	require.Equal(t, "checked_in", string(bk3.Status))
	pay2, err := e.client.Payment.Get(e.ctx, uuidOf(t, third, "payments", "pay2"))
	require.NoError(t, err)
	require.Equal(t, "refunded", string(pay2.Status))
	m3, err := e.client.Member.Get(e.ctx, uuidOf(t, third, "members", "m3"))
	require.NoError(t, err)
	u3, err := m3.QueryUser().Only(e.ctx)
	require.NoError(t, err)
	require.Equal(t, "Klara", u3.FirstName, "an unclaimed imported account follows the source system")
}

func TestDryRunWritesNothing(t *testing.T) {
	e := newEnv(t)
	before := e.rowCounts(t)
	res, err := e.importJSON(t, readFull(t), importer.Options{DryRun: true})
	require.NoError(t, err)
	require.True(t, res.DryRun)
	require.Equal(t, 3, res.Counts["members"])
	require.Equal(t, before, e.rowCounts(t))
}

func TestImportNamesEarlierRows(t *testing.T) {
	e := newEnv(t)
	_, err := e.importJSON(t, readFull(t), importer.Options{})
	require.NoError(t, err)
	later := `{"format":"venue-import/1","bookings":[
		{"ref":"bk9","member":"m2","class":"c1","status":"confirmed"},
		{"ref":"bk10","member":"m3","class":"c9"}]}`
	before := e.rowCounts(t)
	_, err = e.importJSON(t, later, importer.Options{DryRun: true})
	require.EqualError(t, err, `bookings[bk10].class: unknown class ref "c9"`)
	require.Equal(t, before, e.rowCounts(t))

	later = `{"format":"venue-import/1","bookings":[{"ref":"bk9","member":"m2","class":"c2","status":"confirmed"}]}`
	_, err = e.importJSON(t, later, importer.Options{DryRun: true})
	require.ErrorContains(t, err, `bookings[bk9].class: class "c2" is over capacity`, "two seats already held in the database")

	later = `{"format":"venue-import/1","bookings":[{"ref":"bk9","member":"m2","class":"c1","pass":"p1"}]}`
	_, err = e.importJSON(t, later, importer.Options{})
	require.EqualError(t, err, `bookings[bk9].pass: pass "p1" belongs to another member than "m2"`)

	later = `{"format":"venue-import/1","bookings":[{"ref":"bk9","member":"m2","class":"c1","pass":"p2"}]}`
	res, err := e.importJSON(t, later, importer.Options{})
	require.NoError(t, err)
	require.Equal(t, 1, res.Created["bookings"])
	require.Equal(t, before["bookings"]+1, e.rowCounts(t)["bookings"])
}

func TestBadDocumentsWriteNothing(t *testing.T) {
	full := readFull(t)
	cases := []struct {
		name, doc, want string
	}{
		{"malformed JSON", "{\n  \"format\": \"venue-import/1\",\n  \"brands\": [}\n", "malformed JSON at line 3, column 14"},
		{"wrong format", strings.Replace(full, `"venue-import/1"`, `"venue-import/2"`, 1), `format: unsupported format "venue-import/2"`},
		{"unknown top-level field", strings.Replace(full, `"brands":`, `"brandz": [], "brands":`, 1), "brandz: unknown top-level field"},
		{"unknown item field", strings.Replace(full, `"ref": "a1",`, `"ref": "a1", "colour": "red",`, 1), "alerts[a1].colour: unknown field"},
		{"wrong type", strings.Replace(full, `"capacity": 20,`, `"capacity": "20",`, 1), "classes[c1].capacity: want a number, got string"},
		{"unknown ref", strings.Replace(full, `"room": "r3",`, `"room": "r9",`, 1), `classes[c3].room: unknown room ref "r9"`},
		{"enumeration", strings.Replace(full, `"status": "no-show"`, `"status": "noshow"`, 1), `bookings[bk3].status: value "noshow" is not one of confirmed, waitlisted`},
		{"over capacity", strings.Replace(full, `"status": "waitlisted"`, `"status": "confirmed"`, 1), `bookings[bk4].class: class "c2" is over capacity`},
		{"pass currency", strings.Replace(full, `"currency": "DKK"}`, `"currency": "EUR"}`, 1), `passes[p2].currency: currency "EUR" differs from the currency DKK of pass type "pt2"`},
		{"payment currency", strings.Replace(full, `"amount_minor": 59900, "currency": "DKK"`, `"amount_minor": 59900, "currency": "SKK"`, 1), `payments[pay2].currency: currency "SKK" is not an ISO 4217 code`},
		{"bad date", strings.Replace(full, `"2027-04-30"`, `"2027-04-31"`, 1), `passes[p1].valid_to: invalid date "2027-04-31"`},
		{"duplicate ref", strings.Replace(full, `"ref": "m3"`, `"ref": "m2"`, 1), `members[m2].ref: duplicate ref "m2"`},
		{"room in other location", strings.Replace(full, `"location": "l2", "room": "r3"`, `"location": "l1", "room": "r3"`, 1), `classes[c3].room: room "r3" is not in location "l1"`},
	}
	for _, tc := range cases {
		if tc.want == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			before := e.rowCounts(t)
			_, err := e.importJSON(t, tc.doc, importer.Options{})
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.Equal(t, before, e.rowCounts(t))
		})
	}
}

func TestParseReportsPosition(t *testing.T) {
	_, err := importer.Parse(bytes.NewReader([]byte("{\"format\": \"venue-import/1\",\n\"members\": [{\"ref\": \"m1\",}]}")))
	require.ErrorContains(t, err, "malformed JSON at line 2, column")
}

func uuidOf(t *testing.T, res *importer.Result, section, ref string) uuid.UUID {
	t.Helper()
	id, err := uuid.Parse(res.IDs[section][ref])
	require.NoError(t, err, "%s %s", section, ref)
	return id
}

func TestImportStaysInItsVenue(t *testing.T) {
	e := newEnv(t)
	a, err := e.importJSON(t, readFull(t), importer.Options{})
	require.NoError(t, err)

	other, err := venue.Create(context.Background(), e.client, venue.CreateParams{Name: "Other", Slug: "other"})
	require.NoError(t, err)
	b := &env{pool: e.pool, client: e.client, ctx: viewer.NewContext(context.Background(), viewer.Operator{Org: other.ID})}
	res, err := b.importJSON(t, readFull(t), importer.Options{})
	require.NoError(t, err)
	require.Equal(t, res.Counts, res.Created, "the same refs in another venue are other rows")
	require.NotEqual(t, a.IDs["classes"]["c1"], res.IDs["classes"]["c1"])
	counts := e.rowCounts(t)
	require.Equal(t, 3, counts["users"], "people are global: one account, two memberships")
	require.Equal(t, 6, counts["members"])

	// A bookings-only document in the other venue cannot name this venue's rows.
	_, err = b.importJSON(t, `{"format":"venue-import/1","bookings":[{"ref":"x","member":"m1","class":"c1"}]}`, importer.Options{})
	require.NoError(t, err, "m1 and c1 exist in the other venue too")
	_, err = b.importJSON(t, `{"format":"venue-import/1","members":[{"ref":"zz","email":"zz@example.com"}]}`, importer.Options{})
	require.NoError(t, err)
	_, err = e.importJSON(t, `{"format":"venue-import/1","bookings":[{"ref":"y","member":"zz","class":"c1"}]}`, importer.Options{})
	require.EqualError(t, err, `bookings[y].member: unknown member ref "zz"`)
}
