package demo

import (
	"fmt"
	"time"

	"github.com/venueplatform/venue/internal/importer"
)

// minutes of each class type.
var minutes = map[string]int{
	"ct-vinyasa": 60, "ct-hot": 60, "ct-yin": 75, "ct-reformer": 50, "ct-spin": 45, "ct-hiit": 45,
}

// week returns the classes of the seven days from today and their bookings.
// Classes over by now are completed, with check-ins and a no-show; the
// reformer class of tomorrow is full with three people waiting.
func week(today, now time.Time) ([]importer.Class, []importer.Booking) {
	var classes []importer.Class
	var bookings []importer.Booking
	n := 0
	for day := range 7 {
		date := today.AddDate(0, 0, day)
		for si, s := range slots {
			ref := fmt.Sprintf("c-%s-%s", date.Format("0102"), s.classType[3:])
			start := time.Date(date.Year(), date.Month(), date.Day(), s.hour, s.minute, 0, 0, today.Location())
			end := start.Add(time.Duration(minutes[s.classType]) * time.Minute)
			status := "scheduled"
			if end.Before(now) {
				status = "completed"
			}
			capacity := roomCapacity[s.room]
			classes = append(classes, importer.Class{Ref: ref, ClassType: s.classType, Instructor: s.instructor, Room: s.room,
				StartTime: start.Format(time.RFC3339), EndTime: end.Format(time.RFC3339), Capacity: &capacity, Status: status})

			seated := 2 + (n*7)%9
			waiting := 0
			if si == fullSlot && day == fullDay {
				seated, waiting = capacity, 3
			}
			seated = min(seated, capacity-1+waitingFull(waiting))
			for k := range seated + waiting {
				mi := (n*3 + k) % len(people)
				b := importer.Booking{Ref: fmt.Sprintf("bk-%s-%02d", ref[2:], k+1), Member: fmt.Sprintf("m%02d", mi+1), Class: ref,
					Status: "confirmed", CreatedAt: start.Add(-time.Duration(24+k*5) * time.Hour).Format(time.RFC3339)}
				if passOf(mi) != "" && mi != 7 {
					b.Pass = "p-" + b.Member
				}
				switch {
				case k >= seated:
					b.Status = "waitlisted"
				case status == "completed" && k == 1:
					b.Status = "no-show"
				case status == "completed":
					b.Status = "checked_in"
					b.CheckedInAt = start.Add(-10 * time.Minute).Format(time.RFC3339)
				case k == 2 && n%4 == 0:
					b.Status = "cancelled"
					b.CancelledAt = start.Add(-30 * time.Hour).Format(time.RFC3339)
				}
				bookings = append(bookings, b)
			}
			n++
		}
	}
	return classes, bookings
}

// waitingFull lets a class with a waitlist fill every seat.
func waitingFull(waiting int) int {
	if waiting > 0 {
		return 1
	}
	return 0
}
