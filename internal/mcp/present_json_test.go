package mcp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// trickyStrings are names that exercise every escape of encoding/json.
var trickyStrings = []string{
	"", "Vinyasa Flow", `Yoga "Flow" <b>&</b> \ C:\path`, "line\nbreak\ttab\r\b\f\x00\x01\x1f\x7f",
	"sep\u2028par\u2029", "\xff\xfe bad \xc3", "ø æ å – 日本 🧘", "\u00a0\ufeff\ufffd",
}

// TestScheduleJSONIsEncodingJSON: the hand-written JSON of the schedule is
// byte for byte json.Marshal's, for empty and full schedules, every ref nil
// or set, names with every escape, times in other zones and with
// nanoseconds, and negative counts.
func TestScheduleJSONIsEncodingJSON(t *testing.T) {
	day := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	cet := time.FixedZone("CET", 3600)
	odd := time.FixedZone("odd", 5*3600+30*60+17)
	var classes []classOut
	for i, name := range trickyStrings {
		c := classOut{ID: uuid.New(), StartTime: day.Add(time.Duration(i) * time.Hour), EndTime: day.Add(time.Duration(i)*time.Hour + 123456789),
			Status: name, Online: i%2 == 0, Capacity: i * 7, Booked: -i, Waitlisted: i, Available: 1 << 40, Bookable: i%3 == 0}
		if i%2 == 0 {
			c.ClassType = &ref{ID: uuid.New(), Name: name}
			c.Room = &ref{Name: name}
		}
		if i%3 != 0 {
			c.Instructor = &ref{ID: uuid.New(), Name: name + name}
			c.Location = &ref{ID: uuid.Nil, Name: name}
			c.StartTime = c.StartTime.In(cet)
			c.EndTime = c.EndTime.In(odd)
		}
		classes = append(classes, c)
	}
	for _, s := range []scheduleOut{
		{},
		presentSchedule(nil, false, day, day, "Europe/Copenhagen"),
		{From: "2026-11-23", To: "2026-11-29", Timezone: "Europe/Copenhagen", Count: len(classes), Truncated: true, Classes: classes},
		{From: trickyStrings[2], To: trickyStrings[4], Timezone: trickyStrings[5], Classes: classes[:1]},
	} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		got, ok := s.appendJSON(nil)
		require.True(t, ok)
		require.Equal(t, string(want), string(got))
		var sc scratch
		got, ok = sc.marshal(s)
		require.True(t, ok)
		require.Equal(t, string(want), string(got))
	}
}

// TestScheduleJSONFallsBack: a time stamp encoding/json refuses is left to
// encoding/json, which refuses it, so the answer is as it always was.
func TestScheduleJSONFallsBack(t *testing.T) {
	bad := scheduleOut{Classes: []classOut{{StartTime: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}}
	_, ok := bad.appendJSON(nil)
	require.False(t, ok)
	_, err := json.Marshal(bad)
	require.Error(t, err)
	var sc scratch
	_, ok = sc.marshal(bad)
	require.False(t, ok)
}

// FuzzJSONString holds appendJSONString equal to encoding/json's encoding
// of any string.
func FuzzJSONString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendJSONString(nil, s)))
	})
}

// FuzzJSONTime holds appendJSONTime equal to encoding/json's encoding of
// any time stamp it accepts, and refusing the ones it refuses.
func FuzzJSONTime(f *testing.F) {
	f.Add(int64(0), int64(0), 0)
	f.Add(int64(1795392000), int64(123456789), 3600)
	f.Add(int64(-62135596801), int64(1), 0)
	f.Add(int64(253402300800), int64(0), -86399)
	f.Fuzz(func(t *testing.T, sec, nsec int64, offset int) {
		tm := time.Unix(sec, nsec).In(time.FixedZone("z", offset%(48*3600)))
		want, err := json.Marshal(tm)
		got, ok := appendJSONTime(nil, tm)
		if err != nil {
			require.False(t, ok)
			return
		}
		if ok {
			require.Equal(t, string(want), string(got))
		}
	})
}
