package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Limits of the schedule read, as the service applies them.
const (
	baselineMaxRangeDays = 62
	baselineRowLimit     = 1000
)

// Baseline serves the service's schedule read, GET
// /api/v1/venues/{slug}/schedule with from and to, on nothing but net/http
// and a pgx pool: the same statements, in the same order, and the same JSON
// answer. It is the yardstick of what the read costs without the service's
// layers (ogen, ent, policies, middleware); other query parameters are
// refused.
type Baseline struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

// NewBaseline returns the baseline handler over pool.
func NewBaseline(pool *pgxpool.Pool) http.Handler {
	b := &Baseline{pool: pool, now: time.Now}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/venues/{slug}/schedule", b.schedule)
	return mux
}

// baselineRow is a schedule row in the service's JSON shape.
type baselineRow struct {
	ID                    uuid.UUID       `json:"id"`
	StartTime             string          `json:"start_time"`
	EndTime               string          `json:"end_time"`
	Status                string          `json:"status"`
	IsBookable            bool            `json:"is_bookable"`
	RequiresWorkshopEntry bool            `json:"requires_workshop_entry"`
	WorkshopEntryTarget   *workshopTarget `json:"workshop_entry_target"`
	ClassType             namedRef        `json:"class_type"`
	Instructor            *namedRef       `json:"instructor"`
	Location              *namedRef       `json:"location"`
	Room                  *namedRef       `json:"room"`
	Capacity              int             `json:"capacity"`
	BookedCount           int             `json:"booked_count"`
	WaitlistCount         int             `json:"waitlist_count"`
	AvailableSpots        int             `json:"available_spots"`
	Online                bool            `json:"online"`

	// Foreign keys, for the eager loads.
	classType                  uuid.UUID
	instructor, location, room *uuid.UUID
	start                      time.Time
	workshopKind, workshopSlug *string
	workshopID                 *uuid.UUID
}

type namedRef struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

type workshopTarget struct {
	Kind string    `json:"kind"`
	ID   uuid.UUID `json:"id"`
	Slug string    `json:"slug"`
}

type baselineMeta struct {
	From      string `json:"from"`
	To        string `json:"to"`
	Timezone  string `json:"timezone"`
	Total     int    `json:"total"`
	Truncated bool   `json:"truncated"`
}

type baselineResponse struct {
	Data  []*baselineRow `json:"data"`
	Error *struct{}      `json:"error"`
	Meta  baselineMeta   `json:"meta"`
}

// errBadRequest marks a client error of the baseline.
var errBadRequest = errors.New("bad request")

func (b *Baseline) schedule(w http.ResponseWriter, r *http.Request) {
	res, err := b.read(r.Context(), r.PathValue("slug"), r)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		http.Error(w, `{"data":null,"error":{"code":"NOT_FOUND"}}`, http.StatusNotFound)
		return
	case errors.Is(err, errBadRequest):
		http.Error(w, `{"data":null,"error":{"code":"VALIDATION_ERROR"}}`, http.StatusBadRequest)
		return
	case err != nil:
		http.Error(w, `{"data":null,"error":{"code":"INTERNAL_ERROR"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(res)
}

// read issues the service's statements for one schedule request.
func (b *Baseline) read(ctx context.Context, slug string, r *http.Request) (*baselineResponse, error) {
	q := r.URL.Query()
	for k := range q {
		if k != "from" && k != "to" {
			return nil, fmt.Errorf("%w: the baseline serves from and to only", errBadRequest)
		}
	}
	var (
		orgID uuid.UUID
		tz    string
	)
	dest := make([]any, venueColumns)
	dest[0], dest[7] = &orgID, &tz
	if err := only(ctx, b.pool, sqlVenueBySlug, []any{slug}, dest); err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, err
	}
	from, to, err := window(q.Get("from"), q.Get("to"), b.now(), loc)
	if err != nil {
		return nil, err
	}
	start := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, loc).UTC()
	end := time.Date(to.Year(), to.Month(), to.Day()+1, 0, 0, 0, 0, loc).UTC()

	rows, err := b.classes(ctx, orgID, start, end)
	if err != nil {
		return nil, err
	}
	truncated := len(rows) > baselineRowLimit
	if truncated {
		rows = rows[:baselineRowLimit]
	}
	if err := b.edges(ctx, orgID, rows); err != nil {
		return nil, err
	}
	b.availability(rows)
	return &baselineResponse{Data: rows, Meta: baselineMeta{
		From: from.Format(time.DateOnly), To: to.Format(time.DateOnly), Timezone: tz,
		Total: len(rows), Truncated: truncated,
	}}, nil
}

// window parses from and to with the service's defaults (venue-local today,
// from + 7 days) and limits.
func window(fromStr, toStr string, now time.Time, loc *time.Location) (from, to time.Time, err error) {
	l := now.In(loc)
	from = time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC)
	if fromStr != "" {
		if from, err = time.Parse(time.DateOnly, fromStr); err != nil {
			return from, to, fmt.Errorf("%w: from", errBadRequest)
		}
	}
	to = from.AddDate(0, 0, 7)
	if toStr != "" {
		if to, err = time.Parse(time.DateOnly, toStr); err != nil {
			return from, to, fmt.Errorf("%w: to", errBadRequest)
		}
	}
	if to.Before(from) || to.Sub(from) > baselineMaxRangeDays*24*time.Hour {
		return from, to, fmt.Errorf("%w: range", errBadRequest)
	}
	return from, to, nil
}

// only runs a LIMIT 2 statement that must find exactly one row, scanning it
// into dest (nil entries, or a nil dest, skip columns).
func only(ctx context.Context, pool *pgxpool.Pool, sql string, args, dest []any) error {
	rows, err := pool.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
		if n == 1 {
			if dest == nil {
				dest = make([]any, len(rows.FieldDescriptions()))
			}
			if err := rows.Scan(dest...); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	switch n {
	case 0:
		return pgx.ErrNoRows
	case 1:
		return nil
	}
	return errors.New("more than one row")
}

// classes reads the window's listed classes, one more than the limit.
func (b *Baseline) classes(ctx context.Context, org uuid.UUID, start, end time.Time) ([]*baselineRow, error) {
	sql := sqlClasses + fmt.Sprint(baselineRowLimit+1)
	rows, err := b.pool.Query(ctx, sql, start, end, org)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*baselineRow{} // an empty schedule is [], not null
	dest := make([]any, classColumns)
	var endTime time.Time
	for rows.Next() {
		c := &baselineRow{}
		dest[0], dest[1], dest[2], dest[3], dest[4] = &c.ID, &c.classType, &c.instructor, &c.location, &c.room
		dest[5], dest[6], dest[7], dest[8], dest[9] = &c.start, &endTime, &c.Capacity, &c.Status, &c.Online
		dest[10], dest[11], dest[12] = &c.workshopKind, &c.workshopID, &c.workshopSlug
		dest[13], dest[14] = &c.BookedCount, &c.WaitlistCount
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		c.StartTime = c.start.UTC().Format(time.RFC3339)
		c.EndTime = endTime.UTC().Format(time.RFC3339)
		if c.workshopKind != nil && c.workshopID != nil {
			t := &workshopTarget{Kind: *c.workshopKind, ID: *c.workshopID}
			if c.workshopSlug != nil {
				t.Slug = *c.workshopSlug
			}
			c.WorkshopEntryTarget = t
		}
		c.RequiresWorkshopEntry = c.workshopKind != nil
		out = append(out, c)
	}
	return out, rows.Err()
}
