package notify

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Entry is the contract's Notification availability entry for one audience on one channel.
// Empty ReasonCode, GateCode and Reason mean null (the entry is available).
type Entry struct {
	Available   bool       `json:"available"`
	ReasonCode  string     `json:"reason_code"`
	GateCode    string     `json:"gate_code"`
	Reason      string     `json:"reason"`
	RecipientID *uuid.UUID `json:"recipient_id"`
	Reachable   int        `json:"reachable"`
	Total       int        `json:"total"`
	Blocked     int        `json:"blocked"`
	ReachLabel  string     `json:"reach_label"`
}

// ChannelEntries are an audience's entries by channel.
type ChannelEntries struct {
	Email Entry `json:"email"`
	SMS   Entry `json:"sms"`
	Push  Entry `json:"push"`
}

// Get returns the entry of ch.
func (c ChannelEntries) Get(ch Channel) Entry {
	switch ch {
	case SMS:
		return c.SMS
	case Push:
		return c.Push
	}
	return c.Email
}

func (c *ChannelEntries) set(ch Channel, e Entry) {
	switch ch {
	case Email:
		c.Email = e
	case SMS:
		c.SMS = e
	case Push:
		c.Push = e
	}
}

// ActionAvailability is one action's entries by audience and channel.
type ActionAvailability struct {
	Clients    ChannelEntries `json:"clients"`
	Instructor ChannelEntries `json:"instructor"`
}

// Availability computes, for each class of ids the viewer can see, the availability of each
// action by audience and channel (gates in the package documentation). Classes that are
// unknown or of another venue are absent from the result. It only reads.
func Availability(ctx context.Context, client *ent.Client, ids []uuid.UUID, actions ...Action) (map[uuid.UUID]map[Action]ActionAvailability, error) {
	for _, a := range actions {
		if !a.Known() {
			return nil, fmt.Errorf("notify: unknown action %q", a)
		}
	}
	venue, err := venueChannels(ctx, client)
	if err != nil {
		return nil, err
	}
	classes, err := loadClasses(ctx, client, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]map[Action]ActionAvailability, len(classes))
	for id, ca := range classes {
		byAction := make(map[Action]ActionAvailability, len(actions))
		for _, a := range actions {
			var av ActionAvailability
			for _, ch := range Channels {
				av.Clients.set(ch, entryFor(a, Clients, ch, venue, ca.of(a, Clients)))
				av.Instructor.set(ch, entryFor(a, Instructor, ch, venue, ca.of(a, Instructor)))
			}
			byAction[a] = av
		}
		out[id] = byAction
	}
	return out, nil
}

// BookingsAvailability is the availability of ch for the members of chosen bookings (the
// front desk's contact), as one clients entry.
func BookingsAvailability(ctx context.Context, client *ent.Client, bookingIDs []uuid.UUID, ch Channel) (Entry, error) {
	return BookingsAvailabilityFor(ctx, client, bookingIDs, ch, ActionContact)
}

// BookingsAvailabilityFor is BookingsAvailability for the messages of action (its category
// decides which of the members' preferences apply).
func BookingsAvailabilityFor(ctx context.Context, client *ent.Client, bookingIDs []uuid.UUID, ch Channel, action Action) (Entry, error) {
	venue, err := venueChannels(ctx, client)
	if err != nil {
		return Entry{}, err
	}
	rs, err := bookingRecipients(ctx, client, bookingIDs)
	if err != nil {
		return Entry{}, err
	}
	return entryFor(action, Clients, ch, venue, rs), nil
}

// AvailabilityError is the entry set of an action whose availability could not be computed.
func AvailabilityError() ActionAvailability {
	e := Entry{ReasonCode: ReasonAvailabilityError, GateCode: GateAvailability,
		Reason: "Availability could not be determined right now.", ReachLabel: "Unknown"}
	c := ChannelEntries{Email: e, SMS: e, Push: e}
	return ActionAvailability{Clients: c, Instructor: c}
}

var channelNames = map[Channel]string{Email: "e-mail", SMS: "SMS", Push: "push"}

// entryFor applies the gates in order for one audience on one channel.
func entryFor(action Action, a Audience, ch Channel, venue map[Channel]bool, rs []recipient) Entry {
	who := "clients"
	if a == Instructor {
		who = "the instructor"
	}
	e := Entry{Total: len(rs)}
	if a == Instructor && len(rs) == 1 {
		id := rs[0].id
		e.RecipientID = &id
	}
	closed := func(code, gate, reason, label string) Entry {
		e.ReasonCode, e.GateCode, e.Reason, e.ReachLabel = code, gate, reason, label
		e.Blocked = e.Total - e.Reachable
		return e
	}
	if !Supported(action, a, ch) {
		return closed(ReasonUnsupported, GateChannelRule,
			fmt.Sprintf("This action cannot reach %s by %s.", who, channelNames[ch]), "Not supported")
	}
	if !venue[ch] {
		return closed(ReasonVenueCapability, GateVenueChannel,
			fmt.Sprintf("The venue has %s notifications switched off.", channelNames[ch]), "Channel off")
	}
	if len(rs) == 0 {
		if a == Instructor {
			return closed(ReasonNoRecipients, GateRecipients, "The class has no instructor assigned.", "No instructor")
		}
		return closed(ReasonNoRecipients, GateRecipients, "Nobody is booked on the class.", "No clients")
	}
	counts := map[string]int{}
	order := []string{}
	for _, r := range rs {
		if _, reason := r.reachFor(CategoryOfAction(action), ch); reason != "" {
			if counts[reason] == 0 {
				order = append(order, reason)
			}
			counts[reason]++
			continue
		}
		e.Reachable++
	}
	e.Blocked = e.Total - e.Reachable
	if e.Reachable == 0 {
		top := order[0]
		for _, r := range order {
			if counts[r] > counts[top] {
				top = r
			}
		}
		return closed(top, GateContact, blockedReason(top, who, ch), fmt.Sprintf("0 of %d reachable", e.Total))
	}
	e.Available = true
	if a == Instructor {
		e.ReachLabel = "Instructor reachable"
	} else {
		e.ReachLabel = fmt.Sprintf("%d of %d reachable", e.Reachable, e.Total)
	}
	return e
}

func blockedReason(code, who string, ch Channel) string {
	switch code {
	case ReasonNoContact:
		return fmt.Sprintf("No %s contact is on record for %s.", channelNames[ch], who)
	case ReasonInvalidContact:
		return fmt.Sprintf("The %s contact on record for %s cannot be used.", channelNames[ch], who)
	case ReasonUserOptedOut:
		return fmt.Sprintf("%s opted out of %s messages.", capitalize(who), channelNames[ch])
	case ReasonNoRegisteredDevice:
		return fmt.Sprintf("No app device is registered for %s.", who)
	}
	return "Not reachable."
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-32) + s[1:]
}
