package notify

import (
	"context"
	"fmt"
	"net/mail"
	"regexp"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationoptout"
	"github.com/venueplatform/venue/ent/pushdevice"
)

// Reason codes of availability entries and of skipped deliveries.
const (
	ReasonVenueCapability    = "venue_capability"
	ReasonUnsupported        = "unsupported"
	ReasonNoContact          = "no_contact"
	ReasonInvalidContact     = "invalid_contact"
	ReasonUserOptedOut       = "user_opted_out"
	ReasonNoRegisteredDevice = "no_registered_device"
	ReasonNoRecipients       = "no_recipients"
	ReasonAvailabilityError  = "availability_error"
)

// Gate codes: which gate closed an entry.
const (
	GateChannelRule  = "channel_rule"
	GateVenueChannel = "venue_channel"
	GateRecipients   = "recipients"
	GateContact      = "contact"
	GateAvailability = "availability"
)

// Venue feature modules that switch channels (FeatureProvisioning.modules).
const (
	ModuleEmail = "notifications_email"
	ModuleSMS   = "notifications_sms"
	ModulePush  = "notifications_push"
)

// seatOrQueue are the booking statuses whose members a class change concerns.
var seatOrQueue = []booking.Status{booking.StatusConfirmed, booking.StatusWaitlisted, booking.StatusCheckedIn,
	booking.StatusNoShow, booking.StatusPendingPayment}

// classCancelledReason is the cancel_reason of bookings a class cancellation cancelled.
const classCancelledReason = "class_cancelled"

// recipient is one person an audience holds, with what each channel needs.
type recipient struct {
	kind         string // member, instructor
	id           uuid.UUID
	userID       *uuid.UUID
	bookingID    *uuid.UUID
	classID      *uuid.UUID
	email, phone string
	optedOut     map[Channel]bool
	devices      []string
	resolved     map[Channel]reach
	// prefs are the member's chosen channels per category; nil means the defaults.
	prefs *Preferences
}

// reachFor is addresses for a message of category cat: a member who switched the channel off
// for the category is opted out of it.
func (r recipient) reachFor(cat Category, ch Channel) ([]string, string) {
	if r.kind == "member" {
		c, ok := defaults[cat]
		if r.prefs != nil {
			c, ok = r.prefs.Categories[cat]
		}
		if ok && !c.Allows(ch) {
			return nil, ReasonUserOptedOut
		}
	}
	return r.addresses(ch)
}

// addresses returns where ch reaches r, or the reason it does not (computed once per person
// by resolve: a schedule window asks it for every class, action and channel).
func (r recipient) addresses(ch Channel) ([]string, string) {
	if r.resolved != nil {
		a := r.resolved[ch]
		return a.addrs, a.reason
	}
	return r.resolve(ch)
}

type reach struct {
	addrs  []string
	reason string
}

// withResolved returns r with every channel's reach computed.
func (r recipient) withResolved() recipient {
	res := make(map[Channel]reach, len(Channels))
	for _, ch := range Channels {
		a, why := r.resolve(ch)
		res[ch] = reach{addrs: a, reason: why}
	}
	r.resolved = res
	return r
}

func (r recipient) resolve(ch Channel) ([]string, string) {
	if r.optedOut[ch] {
		return nil, ReasonUserOptedOut
	}
	switch ch {
	case Email:
		if strings.TrimSpace(r.email) == "" {
			return nil, ReasonNoContact
		}
		if !validEmail(r.email) {
			return nil, ReasonInvalidContact
		}
		return []string{strings.TrimSpace(r.email)}, ""
	case SMS:
		if strings.TrimSpace(r.phone) == "" {
			return nil, ReasonNoContact
		}
		p, ok := normalPhone(r.phone)
		if !ok {
			return nil, ReasonInvalidContact
		}
		return []string{p}, ""
	case Push:
		if len(r.devices) == 0 {
			return nil, ReasonNoRegisteredDevice
		}
		return r.devices, ""
	}
	return nil, ReasonUnsupported
}

func validEmail(s string) bool {
	s = strings.TrimSpace(s)
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && !strings.ContainsAny(s, "\r\n")
}

var phonePattern = regexp.MustCompile(`^\+?[0-9]{8,15}$`)

// normalPhone strips spaces, dashes, dots and parentheses and accepts 8 to 15 digits with an
// optional leading +.
func normalPhone(s string) (string, bool) {
	p := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.', '(', ')':
			return -1
		}
		return r
	}, strings.TrimSpace(s))
	return p, phonePattern.MatchString(p)
}

// venueChannels reads which channels the venue has switched on.
func venueChannels(ctx context.Context, client *ent.Client) (map[Channel]bool, error) {
	fp, err := client.FeatureProvisioning.Query().Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, fmt.Errorf("notify: venue features: %w", err)
	}
	var mods map[string]bool
	if fp != nil {
		mods = fp.Modules
	}
	on := func(key string, def bool) bool {
		if v, ok := mods[key]; ok {
			return v
		}
		return def
	}
	return map[Channel]bool{Email: on(ModuleEmail, true), SMS: on(ModuleSMS, false), Push: on(ModulePush, false)}, nil
}

// classAudience is the recipients of one class, by audience and by the action restore (which
// tells the clients the cancellation cancelled).
type classAudience struct {
	class      *ent.ClassInstance
	clients    []recipient
	cancelled  []recipient
	instructor *recipient
}

func (c *classAudience) of(action Action, a Audience) []recipient {
	if a == Instructor {
		if c.instructor == nil {
			return nil
		}
		return []recipient{*c.instructor}
	}
	// Once a class is cancelled its clients are also the bookings the cancellation cancelled
	// (checked-in ones keep their status): the people a cancellation enqueued after it, in its
	// transaction, tells. A restoration tells those the cancellation cancelled.
	if c.class.Status == classinstance.StatusCancelled {
		return append(append([]recipient(nil), c.clients...), c.cancelled...)
	}
	if action == ActionRestore {
		return c.cancelled
	}
	return c.clients
}

// loadClasses reads the classes of ids visible to the viewer with their audiences, in a fixed
// number of queries whatever the number of classes. Unknown and foreign ids are left out.
func loadClasses(ctx context.Context, client *ent.Client, ids []uuid.UUID) (map[uuid.UUID]*classAudience, error) {
	classes, err := client.ClassInstance.Query().Where(classinstance.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("notify: classes: %w", err)
	}
	out := make(map[uuid.UUID]*classAudience, len(classes))
	var insIDs []uuid.UUID
	for _, c := range classes {
		out[c.ID] = &classAudience{class: c}
		if c.InstructorID != nil {
			insIDs = append(insIDs, *c.InstructorID)
		}
	}
	if len(classes) == 0 {
		return out, nil
	}
	bookings, err := client.Booking.Query().
		Where(booking.ClassInstanceIDIn(ids...),
			booking.Or(booking.StatusIn(seatOrQueue...),
				booking.And(booking.StatusEQ(booking.StatusCancelled), booking.CancelReasonEQ(classCancelledReason)))).
		Order(booking.ByCreatedAt(), booking.ByID()).
		Select(booking.FieldID, booking.FieldMemberID, booking.FieldClassInstanceID, booking.FieldStatus).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("notify: bookings: %w", err)
	}
	people, err := loadMembers(ctx, client, memberIDs(bookings))
	if err != nil {
		return nil, err
	}
	for _, b := range bookings {
		ca := out[b.ClassInstanceID]
		r, ok := people[b.MemberID]
		if !ok || ca == nil {
			continue
		}
		id := b.ID
		r.bookingID = &id
		if b.Status == booking.StatusCancelled {
			ca.cancelled = append(ca.cancelled, r)
		} else {
			ca.clients = append(ca.clients, r)
		}
	}
	if len(insIDs) > 0 {
		ins, err := client.Instructor.Query().Where(instructor.IDIn(insIDs...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("notify: instructors: %w", err)
		}
		byID := make(map[uuid.UUID]*ent.Instructor, len(ins))
		for _, i := range ins {
			byID[i.ID] = i
		}
		for _, ca := range out {
			if ca.class.InstructorID == nil {
				continue
			}
			if i := byID[*ca.class.InstructorID]; i != nil {
				r := recipient{kind: "instructor", id: i.ID, email: i.Email}.withResolved()
				ca.instructor = &r
			}
		}
	}
	return out, nil
}

func memberIDs(bs []*ent.Booking) []uuid.UUID {
	seen := map[uuid.UUID]bool{}
	var ids []uuid.UUID
	for _, b := range bs {
		if !seen[b.MemberID] {
			seen[b.MemberID] = true
			ids = append(ids, b.MemberID)
		}
	}
	return ids
}

// loadMembers reads members with their account's contact details, opt-outs and enabled push
// devices.
func loadMembers(ctx context.Context, client *ent.Client, ids []uuid.UUID) (map[uuid.UUID]recipient, error) {
	out := make(map[uuid.UUID]recipient, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	ms, err := client.Member.Query().Where(member.IDIn(ids...)).WithUser().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("notify: members: %w", err)
	}
	for _, m := range ms {
		uid := m.UserID
		r := recipient{kind: "member", id: m.ID, userID: &uid, optedOut: map[Channel]bool{}}
		if u := m.Edges.User; u != nil {
			r.email, r.phone = u.Email, u.Phone
		}
		out[m.ID] = r
	}
	opts, err := client.NotificationOptOut.Query().Where(notificationoptout.MemberIDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("notify: opt-outs: %w", err)
	}
	for _, o := range opts {
		if r, ok := out[o.MemberID]; ok {
			r.optedOut[Channel(o.Channel)] = true
		}
	}
	devs, err := client.PushDevice.Query().
		Where(pushdevice.MemberIDIn(ids...), pushdevice.DisabledAtIsNil()).
		Order(pushdevice.ByCreatedAt()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("notify: push devices: %w", err)
	}
	for _, d := range devs {
		if r, ok := out[d.MemberID]; ok {
			r.devices = append(r.devices, d.Token)
			out[d.MemberID] = r
		}
	}
	users := make([]uuid.UUID, 0, len(out))
	for _, r := range out {
		users = append(users, *r.userID)
	}
	prefs, err := loadPreferences(ctx, client, users)
	if err != nil {
		return nil, err
	}
	for id, r := range out {
		if p, ok := prefs[*r.userID]; ok {
			r.prefs = &p
		}
		out[id] = r.withResolved()
	}
	return out, nil
}
