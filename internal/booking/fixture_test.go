package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// world is a venue with a brand, a class type, a ten-clip pass type and
// helpers to add classes and members with passes.
type world struct {
	client    *ent.Client
	op        context.Context
	org       uuid.UUID
	loc       *time.Location
	brand     uuid.UUID
	classType uuid.UUID
	clipType  *ent.PassType
	now       time.Time
}

func newWorld(t testing.TB, slug string) *world {
	t.Helper()
	client := db.NewClient(pgtest.NewPool(t))
	v, err := venue.Create(context.Background(), client, venue.CreateParams{Name: "Studio " + slug, Slug: slug})
	require.NoError(t, err)
	w := &world{client: client, org: v.ID, op: viewer.NewContext(context.Background(), viewer.Operator{Org: v.ID, Name: "test"})}
	w.loc, err = time.LoadLocation(v.Timezone)
	require.NoError(t, err)
	w.now = time.Now().Truncate(time.Second)
	br := client.Brand.Create().SetName("Hot").SetSlug("hot").SaveX(w.op)
	ct := client.ClassType.Create().SetName("Flow").SetBrandID(br.ID).SaveX(w.op)
	w.brand, w.classType = br.ID, ct.ID
	w.clipType = client.PassType.Create().SetName("Ten").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1000).SetCurrency("DKK").SetClips(10).SaveX(w.op)
	return w
}

// class adds a class of the world's type starting in `in` with capacity seats.
func (w *world) class(t testing.TB, in time.Duration, capacity int) *ent.ClassInstance {
	start := w.now.Add(in)
	return w.client.ClassInstance.Create().SetClassTypeID(w.classType).SetStartTime(start).
		SetEndTime(start.Add(time.Hour)).SetCapacity(capacity).SaveX(w.op)
}

// member enrols a member and gives them a pass of pt with clips (nil: unlimited).
func (w *world) member(t testing.TB, email string, pt *ent.PassType, clips *int) (*ent.Member, *ent.Pass) {
	t.Helper()
	en, err := members.Enroll(w.op, w.client, members.EnrollParams{Email: email, FirstName: "M"})
	require.NoError(t, err)
	if pt == nil {
		return en.Member, nil
	}
	p := w.client.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(pt.ID).
		SetValidFrom(w.now.AddDate(0, 0, -1)).SetNillableClipsRemaining(clips).SaveX(w.op)
	return en.Member, p
}

func ptr[T any](v T) *T { return &v }

func (w *world) clips(t testing.TB, p *ent.Pass) int {
	t.Helper()
	got := w.client.Pass.GetX(w.op, p.ID)
	require.NotNil(t, got.ClipsRemaining)
	return *got.ClipsRemaining
}
