package notify

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/notificationpreference"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Category is a kind of message a person chooses channels for.
type Category string

// The ten categories of notification preferences.
const (
	CatClassChanges  Category = "class_changes"         // a booked class cancelled, moved, substituted
	CatBookings      Category = "booking_confirmations" // bookings made or cancelled
	CatWaitlist      Category = "waitlist"              // waitlist places and promotions
	CatReminders     Category = "reminders"             // upcoming classes and appointments
	CatAttendance    Category = "attendance"            // attendance records and their corrections
	CatVenueMessages Category = "venue_messages"        // messages staff send from the front desk
	CatPayments      Category = "payments"              // receipts, failed payments, invoices
	CatMemberships   Category = "memberships"           // passes, renewals, expiries
	CatOffers        Category = "offers"                // offers and campaigns (opt-in)
	CatCommunity     Category = "community"             // reviews, referrals, rewards
)

// Categories lists the categories in display order.
var Categories = []Category{CatClassChanges, CatBookings, CatWaitlist, CatReminders, CatAttendance,
	CatVenueMessages, CatPayments, CatMemberships, CatOffers, CatCommunity}

// QuietCategories are the categories quiet hours and frequency caps hold back: the ones that
// can wait. Operational messages about a specific change are never held back.
var QuietCategories = []Category{CatReminders, CatOffers, CatCommunity, CatMemberships}

// ChannelPrefs is a category's choice per channel, and its cap (nil: none).
type ChannelPrefs struct {
	Email, SMS, Push bool
	MaxPerDay        *int
}

// Allows reports whether the channel may carry the category.
func (c ChannelPrefs) Allows(ch Channel) bool {
	switch ch {
	case Email:
		return c.Email
	case SMS:
		return c.SMS
	case Push:
		return c.Push
	}
	return false
}

// QuietHours is a daily window without notifications of the categories that respect it.
type QuietHours struct {
	Enabled    bool
	Start, End string // HH:MM
	Timezone   string // IANA; empty means each venue's zone
}

// Preferences is a person's choice of what reaches them.
type Preferences struct {
	Categories map[Category]ChannelPrefs
	Quiet      QuietHours
	UpdatedAt  *time.Time
}

// defaults: every category by e-mail and push; SMS only for class changes and the front
// desk's messages (time-critical); offers are opt-in on every channel.
var defaults = map[Category]ChannelPrefs{
	CatClassChanges:  {Email: true, SMS: true, Push: true},
	CatBookings:      {Email: true, Push: true},
	CatWaitlist:      {Email: true, Push: true},
	CatReminders:     {Email: true, Push: true},
	CatAttendance:    {Email: true, Push: true},
	CatVenueMessages: {Email: true, SMS: true, Push: true},
	CatPayments:      {Email: true, Push: true},
	CatMemberships:   {Email: true, Push: true},
	CatOffers:        {},
	CatCommunity:     {Email: true, Push: true},
}

// DefaultPreferences are the preferences of a person who never chose.
func DefaultPreferences() Preferences {
	p := Preferences{Categories: make(map[Category]ChannelPrefs, len(defaults)),
		Quiet: QuietHours{Start: "22:00", End: "07:00"}}
	for k, v := range defaults {
		p.Categories[k] = v
	}
	return p
}

// CategoryOfAction is the category of the messages of an action.
func CategoryOfAction(a Action) Category {
	switch a {
	case ActionContact:
		return CatVenueMessages
	case ActionAttendance:
		return CatAttendance
	}
	return CatClassChanges
}

// CategoryOfKind is the category of a message kind (class.cancelled, attendance.corrected,
// checkin.contact, ...); kinds of no category are the venue's messages.
func CategoryOfKind(kind string) Category {
	switch {
	case strings.HasPrefix(kind, "class."):
		return CatClassChanges
	case strings.HasPrefix(kind, "attendance."):
		return CatAttendance
	case strings.HasPrefix(kind, "booking.waitlist"), strings.HasPrefix(kind, "booking.promoted"):
		return CatWaitlist
	case strings.HasPrefix(kind, "booking."):
		return CatBookings
	case strings.HasPrefix(kind, "payment."):
		return CatPayments
	}
	return CatVenueMessages
}

func fromRow(row *ent.NotificationPreference) Preferences {
	p := DefaultPreferences()
	if row == nil {
		return p
	}
	for k, m := range row.Categories {
		c, ok := p.Categories[Category(k)]
		if !ok {
			continue
		}
		for ch, v := range m {
			switch ch {
			case "email", "sms", "push":
				b, _ := v.(bool)
				switch ch {
				case "email":
					c.Email = b
				case "sms":
					c.SMS = b
				default:
					c.Push = b
				}
			case "max_per_day":
				switch f := v.(type) {
				case float64:
					n := int(f)
					c.MaxPerDay = &n
				case int:
					n := f
					c.MaxPerDay = &n
				}
			}
		}
		p.Categories[Category(k)] = c
	}
	p.Quiet = QuietHours{Enabled: row.QuietHoursEnabled, Start: row.QuietHoursStart, End: row.QuietHoursEnd,
		Timezone: row.QuietHoursTimezone}
	t := row.UpdatedAt
	p.UpdatedAt = &t
	return p
}

func toJSON(p Preferences) map[string]map[string]any {
	out := make(map[string]map[string]any, len(p.Categories))
	for k, c := range p.Categories {
		m := map[string]any{"email": c.Email, "sms": c.SMS, "push": c.Push}
		if c.MaxPerDay != nil {
			m["max_per_day"] = *c.MaxPerDay
		}
		out[string(k)] = m
	}
	return out
}

// MyPreferences reads the signed-in user's preferences (the defaults until they choose).
func MyPreferences(ctx context.Context, client *ent.Client) (Preferences, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return Preferences{}, apperr.Unauthorized("a user session is required")
	}
	row, err := client.NotificationPreference.Query().Where(notificationpreference.UserID(u.UserID)).
		Only(system.Allow(ctx, "me.notify_preferences"))
	if ent.IsNotFound(err) {
		return DefaultPreferences(), nil
	}
	if err != nil {
		return Preferences{}, fmt.Errorf("notify: preferences: %w", err)
	}
	return fromRow(row), nil
}

// CategoryPatch changes a category's channels or cap; nil leaves a value as it is.
type CategoryPatch struct {
	Email, SMS, Push *bool
	// MaxPerDay sets the cap when SetMaxPerDay (nil clears it).
	SetMaxPerDay bool
	MaxPerDay    *int
}

// QuietPatch changes the quiet hours; nil leaves a value as it is.
type QuietPatch struct {
	Enabled              *bool
	Start, End, Timezone *string
}

// PreferencesPatch is a partial change of the preferences.
type PreferencesPatch struct {
	Categories map[string]CategoryPatch
	Quiet      *QuietPatch
}

var clock = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// UpdateMyPreferences applies a partial change to the signed-in user's preferences: unknown
// categories, caps outside 1 to 100 and malformed quiet hours are 400 VALIDATION_ERROR naming
// the field, and nothing changes.
func UpdateMyPreferences(ctx context.Context, client *ent.Client, patch PreferencesPatch) (Preferences, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return Preferences{}, apperr.Unauthorized("a user session is required")
	}
	keys := make([]string, 0, len(patch.Categories))
	for k := range patch.Categories {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(Categories, Category(k)) {
			// The key is the caller's: named once, and bounded (input.Echo).
			return Preferences{}, apperr.Validation("categories."+input.Echo(k), "categories holds an unknown category")
		}
		if c := patch.Categories[k]; c.SetMaxPerDay && c.MaxPerDay != nil && (*c.MaxPerDay < 1 || *c.MaxPerDay > 100) {
			return Preferences{}, apperr.Validation("categories."+k+".max_per_day", "max_per_day is 1 to 100, or null for no cap")
		}
	}
	if q := patch.Quiet; q != nil {
		for name, v := range map[string]*string{"quiet_hours.start": q.Start, "quiet_hours.end": q.End} {
			if v != nil && !clock.MatchString(*v) {
				return Preferences{}, apperr.Validation(name, name+" is a clock time HH:MM")
			}
		}
		if q.Timezone != nil && *q.Timezone != "" {
			if _, err := time.LoadLocation(*q.Timezone); err != nil || strings.EqualFold(*q.Timezone, "local") {
				return Preferences{}, apperr.Validation("quiet_hours.timezone", "quiet_hours.timezone is an IANA zone")
			}
		}
	}
	sctx := system.Allow(ctx, "me.notify_preferences")
	tx, err := client.Tx(sctx)
	if err != nil {
		return Preferences{}, fmt.Errorf("notify: preferences: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	row, err := tx.NotificationPreference.Query().Where(notificationpreference.UserID(u.UserID)).ForUpdate().Only(sctx)
	if err != nil && !ent.IsNotFound(err) {
		return Preferences{}, fmt.Errorf("notify: preferences: %w", err)
	}
	p := fromRow(row)
	for _, k := range keys {
		c, cp := p.Categories[Category(k)], patch.Categories[k]
		set := func(dst *bool, v *bool) {
			if v != nil {
				*dst = *v
			}
		}
		set(&c.Email, cp.Email)
		set(&c.SMS, cp.SMS)
		set(&c.Push, cp.Push)
		if cp.SetMaxPerDay {
			c.MaxPerDay = cp.MaxPerDay
		}
		p.Categories[Category(k)] = c
	}
	if q := patch.Quiet; q != nil {
		if q.Enabled != nil {
			p.Quiet.Enabled = *q.Enabled
		}
		if q.Start != nil {
			p.Quiet.Start = *q.Start
		}
		if q.End != nil {
			p.Quiet.End = *q.End
		}
		if q.Timezone != nil {
			p.Quiet.Timezone = *q.Timezone
		}
	}
	if row == nil {
		row, err = tx.NotificationPreference.Create().SetUserID(u.UserID).SetCategories(toJSON(p)).
			SetQuietHoursEnabled(p.Quiet.Enabled).SetQuietHoursStart(p.Quiet.Start).SetQuietHoursEnd(p.Quiet.End).
			SetQuietHoursTimezone(p.Quiet.Timezone).Save(sctx)
	} else {
		row, err = tx.NotificationPreference.UpdateOne(row).SetCategories(toJSON(p)).
			SetQuietHoursEnabled(p.Quiet.Enabled).SetQuietHoursStart(p.Quiet.Start).SetQuietHoursEnd(p.Quiet.End).
			SetQuietHoursTimezone(p.Quiet.Timezone).Save(sctx)
	}
	if err != nil {
		return Preferences{}, fmt.Errorf("notify: save preferences: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Preferences{}, fmt.Errorf("notify: save preferences: %w", err)
	}
	return fromRow(row), nil
}

// loadPreferences reads the preferences of users (members a venue's message reaches); users
// without a row are absent (defaults).
func loadPreferences(ctx context.Context, client *ent.Client, users []uuid.UUID) (map[uuid.UUID]Preferences, error) {
	out := map[uuid.UUID]Preferences{}
	if len(users) == 0 {
		return out, nil
	}
	// System call site: a venue's message honours each recipient's own choice; the rows are
	// read by the recipients' ids, never listed.
	rows, err := client.NotificationPreference.Query().Where(notificationpreference.UserIDIn(users...)).
		All(system.Allow(ctx, "notify.preferences"))
	if err != nil {
		return nil, fmt.Errorf("notify: preferences: %w", err)
	}
	for _, r := range rows {
		out[r.UserID] = fromRow(r)
	}
	return out, nil
}
