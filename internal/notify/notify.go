package notify

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

// Channel is a way of reaching a person.
type Channel string

// The channels.
const (
	Email Channel = "email"
	SMS   Channel = "sms"
	Push  Channel = "push"
)

// Channels are every channel, in the order availability lists them.
var Channels = []Channel{Email, SMS, Push}

// Audience is who an action on a class tells.
type Audience string

// The audiences.
const (
	Clients    Audience = "clients"
	Instructor Audience = "instructor"
)

// Action is what staff did (or may do) to a class; channel rules depend on it.
type Action string

// The actions of the contract's availability (cancel, edit, substitute, restore) and of the
// front desk (contact, attendance).
const (
	ActionCancel     Action = "cancel"
	ActionEdit       Action = "edit"
	ActionSubstitute Action = "substitute"
	ActionRestore    Action = "restore"
	ActionContact    Action = "contact"
	ActionAttendance Action = "attendance"
)

// Known reports whether a is one of the actions.
func (a Action) Known() bool {
	switch a {
	case ActionCancel, ActionEdit, ActionSubstitute, ActionRestore, ActionContact, ActionAttendance:
		return true
	}
	return false
}

// PermissionSend is the staff permission sending needs (a name of the
// scope.Permissions registry).
const PermissionSend = "notifications.send"

// Request is the contract's notify object: who to tell and how. The zero value sends nothing.
type Request struct {
	Audience struct{ Clients, Instructor bool }
	Channels struct{ Email, SMS, Push bool }
}

// Asked reports whether the request names an audience: only then may anything be sent (and
// only then must the caller be allowed to send).
func (r Request) Asked() bool { return r.Audience.Clients || r.Audience.Instructor }

// audiences returns the audiences r names.
func (r Request) audiences() []Audience {
	var out []Audience
	if r.Audience.Clients {
		out = append(out, Clients)
	}
	if r.Audience.Instructor {
		out = append(out, Instructor)
	}
	return out
}

// channels returns the channels r names.
func (r Request) channels() []Channel {
	var out []Channel
	if r.Channels.Email {
		out = append(out, Email)
	}
	if r.Channels.SMS {
		out = append(out, SMS)
	}
	if r.Channels.Push {
		out = append(out, Push)
	}
	return out
}

// Reasons of ACCESS_DENIED for sending (details.reason of Authorize).
const (
	// ReasonNeedsStaffSession: the caller is not a staff bearer session (an
	// API key, a public caller, or a user outside any workspace).
	ReasonNeedsStaffSession = "notifications_need_staff_session"
	// ReasonPermission: the staff member lacks notifications.send
	// (details.required_permissions names it).
	ReasonPermission = "permission"
)

// Authorize is the one check every operation calls before it sends a client
// notification (email, SMS or push) on a staff action. The contract: API
// keys can never send client notifications; sending needs a staff session
// holding notifications.send in its active venue (owners hold every
// permission). An API key (or any other viewer) is 403 ACCESS_DENIED with
// reason notifications_need_staff_session, a user without the permission 403
// with reason permission and details.required_permissions.
//
// It reads only the viewer the face put in ctx, so every face (REST, MCP)
// gets the same answer. Call it only when the request asks to notify (silent
// by default: omitting the notification controls sends nothing and needs
// nothing), before any change is made, so a refused request changes nothing.
func Authorize(ctx context.Context) error {
	u, ok := viewer.UserFromContext(ctx)
	if !ok || u.Org == uuid.Nil {
		return apperr.AccessDenied(ReasonNeedsStaffSession, "sending notifications needs a staff session's bearer token")
	}
	if !u.HasPermission(PermissionSend) {
		return apperr.AccessDenied(ReasonPermission, "sending notifications needs the notifications.send permission").
			With("required_permissions", []string{PermissionSend})
	}
	return nil
}

// Error codes of CheckChannels.
const (
	CodeChannelRequired   = "CHANNEL_REQUIRED"
	CodeChannelNotAllowed = "CHANNEL_NOT_ALLOWED"
)

// CheckChannels validates a request that asks to notify against the channel rules of action:
// an audience without any channel is 400 CHANNEL_REQUIRED; a channel the rules do not allow
// for any audience the request names (push without clients, SMS to the instructor alone,
// substitution by anything but push to clients and e-mail to the instructor) is 422
// CHANNEL_NOT_ALLOWED with details.channel. A request that asks nothing passes.
func CheckChannels(action Action, r Request) error {
	if !r.Asked() {
		return nil
	}
	chs := r.channels()
	if len(chs) == 0 {
		return &apperr.Error{Status: http.StatusBadRequest, Code: CodeChannelRequired,
			Message: "choose at least one channel for the audience"}
	}
	for _, ch := range chs {
		allowed := false
		for _, a := range r.audiences() {
			if Supported(action, a, ch) {
				allowed = true
			}
		}
		if !allowed {
			return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeChannelNotAllowed,
				Message: "the channel cannot reach the chosen audience for this action"}).With("channel", string(ch))
		}
	}
	return nil
}

// Supported reports whether the channel rules let action reach audience on channel: push
// reaches clients only, SMS reaches clients only (instructors have no phone number on record),
// and a substitution tells clients by push only and the instructor by e-mail only.
func Supported(action Action, a Audience, ch Channel) bool {
	if action == ActionSubstitute {
		return (a == Clients && ch == Push) || (a == Instructor && ch == Email)
	}
	if a == Instructor {
		return ch == Email
	}
	return true
}
