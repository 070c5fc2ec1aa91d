package schedule_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestListScansLikeEagerLoads: List on the service's client (rows scanned by
// pgx, edges read by key) returns what the ent eager-load path returns on a
// transaction's client, for classes with and without instructor, location
// and room, a workshop entry, every status and the online flag; another
// venue's classes never appear; the limit truncates.
func TestListScansLikeEagerLoads(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Scan", Slug: "scan"})
	require.NoError(t, err)
	other, err := venue.Create(ctx, client, venue.CreateParams{Name: "Other", Slug: "scan-other"})
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID})
	oop := viewer.NewContext(ctx, viewer.Operator{Org: other.ID})

	flow := client.ClassType.Create().SetName("Flow").SaveX(op)
	yin := client.ClassType.Create().SetName("Yin").SaveX(op)
	ann := client.Instructor.Create().SetFirstName("Ann").SetLastName("Lee").SaveX(op)
	bo := client.Instructor.Create().SetFirstName("Bo").SaveX(op)
	loc := client.Location.Create().SetName("Harbour").SaveX(op)
	hall := client.Room.Create().SetName("Hall").SetCapacity(20).SetLocationID(loc.ID).SaveX(op)
	start := time.Now().Add(24 * time.Hour).Truncate(time.Minute)
	statuses := []classinstance.Status{classinstance.StatusScheduled, classinstance.StatusCancelled,
		classinstance.StatusLive, classinstance.StatusCompleted}
	for i := range 8 {
		c := client.ClassInstance.Create().SetClassTypeID(flow.ID).SetCapacity(10 + i).
			SetStartTime(start.Add(time.Duration(i) * time.Hour)).SetEndTime(start.Add(time.Duration(i)*time.Hour + 45*time.Minute)).
			SetStatus(statuses[i%4]).SetOnline(i%3 == 0)
		if i%2 == 0 {
			c.SetClassTypeID(yin.ID).SetInstructorID(ann.ID).SetLocationID(loc.ID).SetRoomID(hall.ID)
		} else if i%3 == 0 {
			c.SetInstructorID(bo.ID)
		}
		if i == 5 {
			c.SetWorkshopEntryKind(classinstance.WorkshopEntryKindWorkshop).
				SetWorkshopEntryID(uuid.New()).SetWorkshopEntrySlug("spring-intensive")
		}
		c.SaveX(op)
	}
	oct := client.ClassType.Create().SetName("Elsewhere").SaveX(oop)
	client.ClassInstance.Create().SetClassTypeID(oct.ID).SetCapacity(5).
		SetStartTime(start).SetEndTime(start.Add(time.Hour)).SaveX(oop)

	pub := viewer.NewContext(ctx, viewer.Public{Org: v.ID})
	f := schedule.Filter{Start: start.Add(-time.Hour), End: start.Add(24 * time.Hour)}
	now := time.Now()
	got, truncated, err := schedule.List(pub, client, f, now)
	require.NoError(t, err)
	require.False(t, truncated)
	require.Len(t, got, 8, "the other venue's class is not listed")

	tx, err := client.Tx(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	want, _, err := schedule.List(pub, tx.Client(), f, now)
	require.NoError(t, err)
	require.JSONEq(t, rowsJSON(t, want), rowsJSON(t, got))
	require.Equal(t, "Ann", got[0].Class.Edges.Instructor.FirstName)
	require.Equal(t, "Hall", got[0].Class.Edges.Room.Name)
	require.Nil(t, got[1].Class.Edges.Room)
	require.Equal(t, "spring-intensive", *got[5].Class.WorkshopEntrySlug)
	require.True(t, got[5].RequiresEntry)

	f.Limit = 3
	got, truncated, err = schedule.List(pub, client, f, now)
	require.NoError(t, err)
	require.True(t, truncated)
	require.Len(t, got, 3)

	// More classes than one allocation chunk.
	later := start.Add(72 * time.Hour)
	var bulk []*ent.ClassInstanceCreate
	for i := range 300 {
		at := later.Add(time.Duration(i) * time.Minute)
		c := client.ClassInstance.Create().SetClassTypeID(flow.ID).SetCapacity(i).
			SetStartTime(at).SetEndTime(at.Add(time.Hour))
		if i%7 == 0 {
			c.SetRoomID(hall.ID)
		}
		bulk = append(bulk, c)
	}
	client.ClassInstance.CreateBulk(bulk...).SaveX(op)
	f = schedule.Filter{Start: later, End: later.Add(24 * time.Hour)}
	got, _, err = schedule.List(pub, client, f, now)
	require.NoError(t, err)
	require.Len(t, got, 300)
	want, _, err = schedule.List(pub, tx.Client(), f, now)
	require.NoError(t, err)
	require.JSONEq(t, rowsJSON(t, want), rowsJSON(t, got))
}

// rowsJSON renders rows with their classes and edges; ent entities carry
// functions (their client's logger) and cannot be compared directly.
func rowsJSON(t *testing.T, rows []schedule.Row) string {
	t.Helper()
	b, err := json.Marshal(rows)
	require.NoError(t, err)
	return string(b)
}
