package notify

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pushdevice"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// App variants of a push registration.
const (
	VariantMember   = "member"
	VariantBranded  = "branded"
	VariantBusiness = "business"
)

// DeviceParams is one app installation's push registration.
type DeviceParams struct {
	Token, Platform, DeviceID, Variant string
	// Org is the venue context (X-Organization-ID), uuid.Nil without one.
	Org uuid.UUID
}

// DeviceResult is where a registration reaches.
type DeviceResult struct {
	Orgs []uuid.UUID
}

// relationships returns the signed-in user's active relationships, in org
// only when org is set (none there is 404), with the user of ctx.
func relationships(ctx context.Context, client *ent.Client, org uuid.UUID) (viewer.User, []*ent.Member, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return u, nil, apperr.Unauthorized("a user session is required")
	}
	q := client.Member.Query().Where(member.UserID(u.UserID), member.StatusEQ(member.StatusActive))
	if org != uuid.Nil {
		q.Where(member.OrganizationID(org))
	}
	// System call site: the user's own relationships, bound to their id.
	ms, err := q.Order(ent.Asc(member.FieldCreatedAt)).All(system.Allow(ctx, "me.memberships"))
	if err != nil {
		return u, nil, fmt.Errorf("notify: relationships: %w", err)
	}
	if org != uuid.Nil && len(ms) == 0 {
		return u, nil, apperr.NotFound("organization").With("parameter", "X-Organization-ID")
	}
	return u, ms, nil
}

// inVenue is ctx acting as user u in the venue of relationship m: the venue
// wall then keeps every query and write to that venue's rows.
func inVenue(ctx context.Context, u viewer.User, m *ent.Member) context.Context {
	return system.Elevate(ctx, "notify.member_in_venue", viewer.User{UserID: u.UserID, SessionID: u.SessionID, Org: m.OrganizationID,
		MemberID: m.ID, MFA: u.MFA, StepUpAt: u.StepUpAt})
}

// RegisterDevice records the signed-in user's app installation for push in
// every venue relationship it reaches (rules in the OpenAPI description of
// POST /me/push-token), in one transaction.
func RegisterDevice(ctx context.Context, client *ent.Client, p DeviceParams) (DeviceResult, error) {
	p.Token, p.DeviceID = strings.TrimSpace(p.Token), strings.TrimSpace(p.DeviceID)
	if p.Token == "" {
		return DeviceResult{}, apperr.Validation("token", "token is required")
	}
	if p.DeviceID == "" {
		return DeviceResult{}, apperr.Validation("device_id", "device_id is required")
	}
	if p.Variant != VariantMember && p.Org == uuid.Nil {
		return DeviceResult{}, apperr.Validation("X-Organization-ID", "the branded and business apps register within a venue: send X-Organization-ID")
	}
	u, ms, err := relationships(ctx, client, p.Org)
	if err != nil {
		return DeviceResult{}, err
	}
	res := DeviceResult{Orgs: []uuid.UUID{}}
	tx, err := client.Tx(ctx)
	if err != nil {
		return res, fmt.Errorf("notify: register device: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, m := range ms {
		vctx := inVenue(ctx, u, m)
		// The token belongs to the phone's latest registration.
		if _, err := tx.PushDevice.Delete().Where(pushdevice.Token(p.Token),
			pushdevice.Not(pushdevice.And(pushdevice.MemberID(m.ID), pushdevice.DeviceID(p.DeviceID)))).Exec(vctx); err != nil {
			return res, fmt.Errorf("notify: release token: %w", err)
		}
		cur, err := tx.PushDevice.Query().Where(pushdevice.MemberID(m.ID), pushdevice.DeviceID(p.DeviceID)).Only(vctx)
		switch {
		case ent.IsNotFound(err):
			err = tx.PushDevice.Create().SetMemberID(m.ID).SetDeviceID(p.DeviceID).SetToken(p.Token).
				SetPlatform(pushdevice.Platform(p.Platform)).SetAppVariant(pushdevice.AppVariant(p.Variant)).Exec(vctx)
		case err == nil:
			err = tx.PushDevice.UpdateOne(cur).SetToken(p.Token).SetPlatform(pushdevice.Platform(p.Platform)).
				SetAppVariant(pushdevice.AppVariant(p.Variant)).ClearDisabledAt().Exec(vctx)
		}
		if err != nil {
			return res, fmt.Errorf("notify: register device: %w", err)
		}
		res.Orgs = append(res.Orgs, m.OrganizationID)
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("notify: register device: %w", err)
	}
	return res, nil
}

// RemoveDevices removes the signed-in user's registrations matching token
// and/or deviceID (at least one) in every venue relationship, or in org only
// when set; it returns how many it removed.
func RemoveDevices(ctx context.Context, client *ent.Client, org uuid.UUID, token, deviceID string) (int, error) {
	token, deviceID = strings.TrimSpace(token), strings.TrimSpace(deviceID)
	if token == "" && deviceID == "" {
		return 0, apperr.Validation("token", "send token or device_id")
	}
	u, ms, err := relationships(ctx, client, org)
	if err != nil {
		if apperr.From(err).Code == apperr.CodeNotFound {
			return 0, nil
		}
		return 0, err
	}
	n := 0
	for _, m := range ms {
		q := client.PushDevice.Delete().Where(pushdevice.MemberID(m.ID))
		if token != "" {
			q.Where(pushdevice.Token(token))
		}
		if deviceID != "" {
			q.Where(pushdevice.DeviceID(deviceID))
		}
		k, err := q.Exec(inVenue(ctx, u, m))
		if err != nil {
			return n, fmt.Errorf("notify: remove devices: %w", err)
		}
		n += k
	}
	return n, nil
}
