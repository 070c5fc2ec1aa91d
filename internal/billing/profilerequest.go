package billing

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/notify"
)

// Staff ask a client to update one field of their profile, on one channel.
// The 24-hour rule needs no table of its own: the request is an outbox
// delivery of kind ProfileRequestKind whose correlation id names the client
// and the field ("profile-request:{member}:{field}"), and a request is
// refused while a delivery with that key, not skipped, is younger than 24
// hours. The client's row is locked first, so two staff asking at once send
// one. The audit entry is written in the same transaction.

// ProfileRequestKind is the notification kind of a profile update request.
const ProfileRequestKind = "member.profile_update_request"

// ProfileRequestWindow is how long a client is asked about one field once.
const ProfileRequestWindow = 24 * time.Hour

// CodeProfileRequestFailed answers a profile update request that could not be sent.
const CodeProfileRequestFailed = "PROFILE_REQUEST_FAILED"

// AuditProfileRequested is the audit action of a profile update request.
const AuditProfileRequested = "member_profile_update_requested"

// ReasonRecentlyRequested: the field was asked for within the window.
const ReasonRecentlyRequested = "recently_requested"

// profileFields are the fields a client may be asked about, with how the
// message names them.
var profileFields = map[string]string{
	"name": "name", "email": "e-mail address", "phone": "phone number",
	"address": "address", "birth_date": "date of birth",
}

// ProfileRequest is a sent profile update request.
type ProfileRequest struct {
	MemberID      uuid.UUID
	Field         string
	Channel       notify.Channel
	DeliveryID    uuid.UUID
	RequestedAt   time.Time
	NextAllowedAt time.Time
}

func profileRequestFailed(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeProfileRequestFailed,
		Message: "the profile update request could not be sent"}).With("reason", reason)
}

// RequestProfileUpdate asks client memberID to update field on channel ch.
// Another venue's or an unknown client is CLIENT_NOT_FOUND; a request that
// cannot be sent (asked within 24 hours, no reachable address, opted out,
// channel off at the venue) is PROFILE_REQUEST_FAILED and changes nothing.
// The caller has checked the staff permission.
func (s *Service) RequestProfileUpdate(ctx context.Context, memberID uuid.UUID, field string, ch notify.Channel) (*ProfileRequest, error) {
	label, ok := profileFields[field]
	if !ok {
		return nil, apperr.Validation("field", "unknown profile field")
	}
	if _, err := s.clientOf(ctx, memberID); err != nil {
		return nil, err
	}
	org, err := s.client.Organization.Query().Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("billing: profile request: venue: %w", err)
	}
	key := "profile-request:" + memberID.String() + ":" + field
	now := s.now()
	var out *ProfileRequest
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Member.Query().Where(member.ID(memberID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		last, err := tx.NotificationDelivery.Query().Where(notificationdelivery.Kind(ProfileRequestKind),
			notificationdelivery.CorrelationID(key), notificationdelivery.StatusNEQ(notificationdelivery.StatusSkipped),
			notificationdelivery.CreatedAtGT(now.Add(-ProfileRequestWindow))).
			Order(ent.Desc(notificationdelivery.FieldCreatedAt)).First(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return err
		}
		if last != nil {
			return profileRequestFailed(ReasonRecentlyRequested).
				With("next_allowed_at", last.CreatedAt.Add(ProfileRequestWindow).UTC().Format(time.RFC3339))
		}
		res, err := notify.EnqueueForMembers(ctx, tx.Client(), []uuid.UUID{memberID}, ch, notify.Message{
			Kind:          ProfileRequestKind,
			Subject:       fmt.Sprintf("Please update your %s at %s", label, org.Name),
			Body:          fmt.Sprintf("%s asks you to check and update your %s in your profile.", org.Name, label),
			Data:          map[string]any{"member_id": memberID.String(), "field": field},
			CorrelationID: key,
		})
		if err != nil {
			return err
		}
		if len(res.QueuedIDs) == 0 {
			reason := notify.ReasonNoContact
			if len(res.Skipped) > 0 {
				reason = res.Skipped[0].Reason
			}
			return profileRequestFailed(reason)
		}
		if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditProfileRequested, Target: "member:" + memberID.String(),
			Details: map[string]any{"member_id": memberID.String(), "field": field, "channel": string(ch)}}); err != nil {
			return err
		}
		out = &ProfileRequest{MemberID: memberID, Field: field, Channel: ch, DeliveryID: res.QueuedIDs[0],
			RequestedAt: now.UTC(), NextAllowedAt: now.Add(ProfileRequestWindow).UTC()}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
