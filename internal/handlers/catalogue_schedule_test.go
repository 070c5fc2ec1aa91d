package handlers_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/classinstance"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestScheduleWorkshopEntryAndTime: a class entered through a workshop says
// so with its target; a class that has started, or is live or completed, is
// not bookable even with free seats.
func TestScheduleWorkshopEntryAndTime(t *testing.T) {
	s := newStudio(t, "studio")
	c, op := s.client, s.op
	day := s.today.AddDate(0, 0, 4)
	at := func(h int) time.Time { return day.Add(time.Duration(h) * time.Hour) }
	workshop := uuid.New()
	entry := c.ClassInstance.Create().SetClassTypeID(s.classType).SetStartTime(at(8)).SetEndTime(at(9)).SetCapacity(10).
		SetWorkshopEntryKind(classinstance.WorkshopEntryKindCourse).SetWorkshopEntryID(workshop).
		SetWorkshopEntrySlug("beginners-course").SaveX(op)
	live := c.ClassInstance.Create().SetClassTypeID(s.classType).SetStartTime(at(10)).SetEndTime(at(11)).SetCapacity(10).
		SetStatus(classinstance.StatusLive).SaveX(op)
	done := c.ClassInstance.Create().SetClassTypeID(s.classType).SetStartTime(at(12)).SetEndTime(at(13)).SetCapacity(10).
		SetStatus(classinstance.StatusCompleted).SaveX(op)
	now := time.Now()
	started := c.ClassInstance.Create().SetClassTypeID(s.classType).SetStartTime(now.Add(-time.Minute)).
		SetEndTime(now.Add(time.Hour)).SetCapacity(10).SaveX(op)

	cl := s.apiClient(t, "")
	date := func(t time.Time) api.OptDate {
		l := t.In(s.loc)
		return api.NewOptDate(time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC))
	}
	res, err := cl.GetVenueSchedule(context.Background(), api.GetVenueScheduleParams{Slug: "studio", From: date(day), To: date(day)})
	require.NoError(t, err)
	rows := map[uuid.UUID]api.ScheduleRow{}
	for _, r := range res.Data {
		rows[r.ID] = r
	}
	require.Len(t, rows, 3)
	e := rows[entry.ID]
	require.True(t, e.RequiresWorkshopEntry)
	require.Equal(t, api.WorkshopEntryTarget{Kind: api.WorkshopEntryTargetKindCourse, ID: workshop, Slug: "beginners-course"},
		e.WorkshopEntryTarget.Value)
	require.True(t, e.IsBookable, "entry through a course says how to book, it does not make the class unbookable")
	require.Equal(t, api.ClassStatusLive, rows[live.ID].Status)
	require.False(t, rows[live.ID].IsBookable)
	require.False(t, rows[done.ID].IsBookable)
	require.Equal(t, 10, rows[done.ID].AvailableSpots)

	res, err = cl.GetVenueSchedule(context.Background(), api.GetVenueScheduleParams{Slug: "studio",
		From: date(now.Add(-time.Minute)), To: date(now.Add(-time.Minute))})
	require.NoError(t, err)
	found := false
	for _, r := range res.Data {
		if r.ID == started.ID {
			found = true
			require.False(t, r.IsBookable, "a class that has started is not bookable")
			require.Equal(t, 10, r.AvailableSpots)
		}
	}
	require.True(t, found)
}
