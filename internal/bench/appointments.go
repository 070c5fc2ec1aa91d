package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// AppointmentsOp is the name of the appointments measurement (--ops
// appointments). It runs on its own data, not on the schedule sets:
//
//   - availability: one service over a 30-day window with 20 providers,
//     on a venue with 200 appointments (all in the window) and on one with
//     20,000 (the same 200 plus 19,800 of history over two years), requests
//     alternating between the two so a busy machine disturbs both alike;
//     the goal is p99 at 20,000 <= 1.5x p99 at 200 (cost follows the window).
//   - booking under contention: workers book random starts of one
//     provider's day at once; throughput, refusals, and the number of
//     overlapping seat-holding appointments afterwards (must be zero).
//
// Both call package appointments in-process (no HTTP), so the figures are
// the domain's and the database's.
const AppointmentsOp = "appointments"

// AppointmentsGoalP99 is the availability read's p99 scale goal.
const AppointmentsGoalP99 = 1.5

const (
	apptProviders = 20
	apptInWindow  = 200
	apptHistory   = 20000 - apptInWindow
	apptWindow    = 30
)

// apptSet is one seeded venue of the availability measurement.
type apptSet struct {
	name    string
	pool    *pgxpool.Pool
	client  *ent.Client
	op      context.Context
	service uuid.UUID
	members []*ent.Member
	from    time.Time
	lat     []time.Duration
}

// RunAppointments runs the appointments measurement and writes its report.
func RunAppointments(ctx context.Context, cfg *Config, out io.Writer) error {
	d := NewDisplay(io.Discard, false)
	dbs, err := openDatabases(ctx, cfg, d)
	if err != nil {
		return err
	}
	defer dbs.close()
	small, err := seedAppointments(ctx, dbs, "appt_small", 0)
	if err != nil {
		return err
	}
	defer small.pool.Close()
	large, err := seedAppointments(ctx, dbs, "appt_large", apptHistory)
	if err != nil {
		return err
	}
	defer large.pool.Close()

	n := int(cfg.MaxRequests)
	if n <= 0 {
		n = 400
	}
	for range 20 { // warm-up, not measured
		if err := availabilityOnce(small, nil); err != nil {
			return err
		}
		if err := availabilityOnce(large, nil); err != nil {
			return err
		}
	}
	for range n {
		if err := availabilityOnce(small, &small.lat); err != nil {
			return err
		}
		if err := availabilityOnce(large, &large.lat); err != nil {
			return err
		}
	}
	s50, s99 := percentile(small.lat, 50), percentile(small.lat, 99)
	l50, l99 := percentile(large.lat, 50), percentile(large.lat, 99)
	ratio := float64(l99) / float64(s99)
	fmt.Fprintf(out, "availability: one service, %d days, %d providers, provider any; %d requests per set\n", apptWindow, apptProviders, n)
	fmt.Fprintf(out, "  %-28s p50 %8s  p99 %8s\n", fmt.Sprintf("%d appointments", apptInWindow), s50.Round(time.Microsecond), s99.Round(time.Microsecond))
	fmt.Fprintf(out, "  %-28s p50 %8s  p99 %8s\n", fmt.Sprintf("%d appointments", apptInWindow+apptHistory), l50.Round(time.Microsecond), l99.Round(time.Microsecond))
	met := "met"
	if ratio > AppointmentsGoalP99 {
		met = "NOT met"
	}
	fmt.Fprintf(out, "  p99 ratio 20000/200: %.2fx (goal <= %.1fx: %s); p50 ratio %.2fx\n", ratio, AppointmentsGoalP99, met,
		float64(l50)/float64(s50))

	workers := 16
	if len(cfg.Concurrency) > 0 {
		workers = cfg.Concurrency[len(cfg.Concurrency)-1]
	}
	return contention(ctx, small, workers, 20*workers, out)
}

// seedAppointments creates a Copenhagen venue with one 45-minute service,
// 20 providers working 08:00 to 20:00 every day, 200 members, 200
// appointments in the 30-day window from tomorrow and history extra ones
// before it (two years, non-overlapping per provider).
func seedAppointments(ctx context.Context, dbs *databases, suffix string, history int) (*apptSet, error) {
	u, err := dbs.url(ctx, suffix)
	if err != nil {
		return nil, err
	}
	pool, err := db.Open(ctx, u)
	if err != nil {
		return nil, err
	}
	if _, err := db.Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	client := db.NewClient(pool)
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Bench salon", Slug: "bench-salon-" + uuid.NewString()[:8]})
	if err != nil {
		pool.Close()
		return nil, err
	}
	s := &apptSet{name: suffix, pool: pool, client: client, op: viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "bench"})}
	loc, err := time.LoadLocation(v.Timezone)
	if err != nil {
		return nil, err
	}
	now := time.Now().In(loc)
	s.from = time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, loc)
	svc, err := client.Service.Create().SetName("Massage").SetSlug("massage").SetDurationMinutes(45).
		SetPriceMinor(0).SetCurrency("DKK").Save(s.op)
	if err != nil {
		return nil, err
	}
	s.service = svc.ID
	var providers []uuid.UUID
	for i := range apptProviders {
		p, err := client.Instructor.Create().SetFirstName(fmt.Sprintf("Provider %d", i)).Save(s.op)
		if err != nil {
			return nil, err
		}
		providers = append(providers, p.ID)
		if err := client.ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(p.ID).SetSortOrder(i).Exec(s.op); err != nil {
			return nil, err
		}
		for wd := range 7 {
			if err := client.ProviderHours.Create().SetProviderID(p.ID).SetWeekday(wd).SetStartMinute(8 * 60).
				SetEndMinute(20 * 60).Exec(s.op); err != nil {
				return nil, err
			}
		}
	}
	for i := range 200 {
		en, err := members.Enroll(s.op, client, members.EnrollParams{Email: fmt.Sprintf("client%03d@bench.example", i), FirstName: "C"})
		if err != nil {
			return nil, err
		}
		s.members = append(s.members, en.Member)
	}
	var rows []*ent.AppointmentCreate
	add := func(p uuid.UUID, start time.Time, st entappointment.Status) {
		end := start.Add(45 * time.Minute)
		rows = append(rows, client.Appointment.Create().SetMemberID(s.members[len(rows)%len(s.members)].ID).
			SetProviderID(p).SetServiceID(svc.ID).SetStartsAt(start).SetEndsAt(end).SetBusyFrom(start).SetBusyUntil(end).
			SetStatus(st).SetPriceMinor(0).SetCurrency("DKK").SetPayment(entappointment.PaymentFree).
			SetBookedVia(entappointment.BookedViaStaff))
	}
	// In the window: each provider gets 10, at 09:00 + provider hours on every third day.
	for i := range apptInWindow {
		p := i % apptProviders
		k := i / apptProviders
		day := time.Date(s.from.Year(), s.from.Month(), s.from.Day()+3*k, 9+p%10, 0, 0, 0, loc)
		add(providers[p], day, entappointment.StatusBooked)
	}
	// History: every 17 hours back from the window, per provider.
	for i := range history {
		p := i % apptProviders
		k := i/apptProviders + 1
		add(providers[p], s.from.Add(-time.Duration(k)*17*time.Hour-2*time.Hour), entappointment.StatusCompleted)
	}
	for len(rows) > 0 {
		n := min(len(rows), 1000)
		if _, err := client.Appointment.CreateBulk(rows[:n]...).Save(s.op); err != nil {
			return nil, fmt.Errorf("seed appointments: %w", err)
		}
		rows = rows[n:]
	}
	if _, err := pool.Exec(ctx, "ANALYZE appointments"); err != nil {
		return nil, err
	}
	return s, nil
}

// availabilityOnce reads the 30-day availability of s's service for any
// provider, recording its latency into lat when non-nil.
func availabilityOnce(s *apptSet, lat *[]time.Duration) error {
	start := time.Now()
	v, err := appointments.LoadVenue(s.op, s.client)
	if err != nil {
		return err
	}
	av, err := appointments.Compute(s.op, s.client, v, appointments.Query{ServiceID: s.service,
		From: s.from, To: s.from.AddDate(0, 0, apptWindow-1), Now: time.Now()})
	if err != nil {
		return err
	}
	if len(av.Slots) == 0 {
		return errors.New("availability offered nothing")
	}
	if lat != nil {
		*lat = append(*lat, time.Since(start))
	}
	return nil
}

func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

// contention has workers book random starts of one provider's day (the
// 12th day of s's window) at once, attempts in all, and reports the
// throughput, the outcomes and the overlapping appointments afterwards.
func contention(ctx context.Context, s *apptSet, workers, attempts int, out io.Writer) error {
	day := s.from.AddDate(0, 0, 12)
	v, err := appointments.LoadVenue(s.op, s.client)
	if err != nil {
		return err
	}
	av, err := appointments.Compute(s.op, s.client, v, appointments.Query{ServiceID: s.service, From: day, To: day, Now: time.Now()})
	if err != nil {
		return err
	}
	provider := av.Candidates[0].Provider.ID
	var starts []time.Time
	for _, sl := range av.Slots {
		starts = append(starts, sl.Start)
	}
	var next, booked, refused, failed atomic.Int64
	var wg sync.WaitGroup
	began := time.Now()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for next.Add(1) <= int64(attempts) {
				m := s.members[r.IntN(len(s.members))]
				_, err := appointments.Book(s.op, s.client, appointments.Actor{Member: m, Via: entappointment.BookedViaStaff},
					appointments.Request{ServiceID: s.service, ProviderID: &provider, Start: starts[r.IntN(len(starts))]}, time.Now())
				var ae *apperr.Error
				switch {
				case err == nil:
					booked.Add(1)
				case errors.As(err, &ae) && ae.Code == appointments.CodeSlotUnavailable:
					refused.Add(1)
				default:
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	var overlaps int
	err = s.pool.QueryRow(ctx, `
		SELECT count(*) FROM appointments a JOIN appointments b
		  ON a.organization_id = b.organization_id AND a.provider_id = b.provider_id AND a.id < b.id
		 AND tstzrange(a.busy_from, a.busy_until, '[)') && tstzrange(b.busy_from, b.busy_until, '[)')
		WHERE a.status IN ('booked','checked_in','in_progress','completed','no_show')
		  AND b.status IN ('booked','checked_in','in_progress','completed','no_show')`).Scan(&overlaps)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "booking under contention: one provider's day (%d offered starts), %d workers, %d attempts in %s\n",
		len(starts), workers, attempts, elapsed.Round(time.Millisecond))
	fmt.Fprintf(out, "  %.0f attempts/s; booked %d, refused SLOT_UNAVAILABLE %d, other errors %d; overlapping appointments: %d\n",
		float64(attempts)/elapsed.Seconds(), booked.Load(), refused.Load(), failed.Load(), overlaps)
	if overlaps != 0 || failed.Load() != 0 {
		return fmt.Errorf("contention: %d overlapping appointments, %d unexpected errors", overlaps, failed.Load())
	}
	return nil
}
