package handlers

import (
	"context"

	"github.com/google/uuid"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
)

// RegisterMyPushToken implements registerMyPushToken.
func (h *Handler) RegisterMyPushToken(ctx context.Context, req *api.MePushTokenRequest, p api.RegisterMyPushTokenParams) (*api.MePushTokenResponse, error) {
	res, err := notify.RegisterDevice(ctx, h.client, notify.DeviceParams{Token: req.Token, Platform: string(req.Platform),
		DeviceID: req.DeviceID, Variant: string(req.AppVariant), Org: p.XOrganizationID.Or(uuid.Nil)})
	if err != nil {
		return nil, err
	}
	return &api.MePushTokenResponse{Data: api.MePushToken{DeviceID: req.DeviceID, Platform: string(req.Platform),
		AppVariant: string(req.AppVariant), Venues: len(res.Orgs), OrganizationIds: res.Orgs}}, nil
}

// RemoveMyPushToken implements removeMyPushToken.
func (h *Handler) RemoveMyPushToken(ctx context.Context, req *api.MePushTokenRemoveRequest, p api.RemoveMyPushTokenParams) (*api.MePushTokenRemoveResponse, error) {
	n, err := notify.RemoveDevices(ctx, h.client, p.XOrganizationID.Or(uuid.Nil), req.Token.Or(""), req.DeviceID.Or(""))
	if err != nil {
		return nil, err
	}
	return &api.MePushTokenRemoveResponse{Data: api.MePushTokenRemoveResponseData{Removed: n}}, nil
}

// GetMyNotificationPreferences implements getMyNotificationPreferences.
func (h *Handler) GetMyNotificationPreferences(ctx context.Context) (*api.MeNotificationPreferencesResponse, error) {
	p, err := notify.MyPreferences(ctx, h.client)
	if err != nil {
		return nil, err
	}
	return &api.MeNotificationPreferencesResponse{Data: preferencesOut(p)}, nil
}

// UpdateMyNotificationPreferences implements updateMyNotificationPreferences.
func (h *Handler) UpdateMyNotificationPreferences(ctx context.Context, req *api.MeNotificationPreferencesPatch, _ api.UpdateMyNotificationPreferencesParams) (*api.MeNotificationPreferencesResponse, error) {
	patch := notify.PreferencesPatch{Categories: map[string]notify.CategoryPatch{}}
	for k, c := range req.Categories.Value {
		cp := notify.CategoryPatch{Email: optBool(c.Email), SMS: optBool(c.SMS), Push: optBool(c.Push)}
		if c.MaxPerDay.Set {
			cp.SetMaxPerDay = true
			if !c.MaxPerDay.Null {
				n := c.MaxPerDay.Value
				cp.MaxPerDay = &n
			}
		}
		patch.Categories[k] = cp
	}
	if q, ok := req.QuietHours.Get(); ok {
		patch.Quiet = &notify.QuietPatch{Enabled: optBool(q.Enabled), Start: optString(q.Start), End: optString(q.End),
			Timezone: optString(q.Timezone)}
	}
	p, err := notify.UpdateMyPreferences(ctx, h.client, patch)
	if err != nil {
		return nil, err
	}
	return &api.MeNotificationPreferencesResponse{Data: preferencesOut(p)}, nil
}

func optBool(o api.OptBool) *bool {
	if !o.Set {
		return nil
	}
	v := o.Value
	return &v
}

func optString(o api.OptString) *string {
	if !o.Set {
		return nil
	}
	v := o.Value
	return &v
}

func preferencesOut(p notify.Preferences) api.MeNotificationPreferences {
	cat := func(c notify.Category) api.MeNotificationCategory {
		v := p.Categories[c]
		out := api.MeNotificationCategory{Email: v.Email, SMS: v.SMS, Push: v.Push}
		if v.MaxPerDay != nil {
			out.MaxPerDay.SetTo(*v.MaxPerDay)
		} else {
			out.MaxPerDay.SetToNull()
		}
		return out
	}
	out := api.MeNotificationPreferences{
		Categories: api.MeNotificationCategories{
			ClassChanges: cat(notify.CatClassChanges), BookingConfirmations: cat(notify.CatBookings),
			Waitlist: cat(notify.CatWaitlist), Reminders: cat(notify.CatReminders), Attendance: cat(notify.CatAttendance),
			VenueMessages: cat(notify.CatVenueMessages), Payments: cat(notify.CatPayments),
			Memberships: cat(notify.CatMemberships), Offers: cat(notify.CatOffers), Community: cat(notify.CatCommunity),
		},
		QuietHours: api.MeQuietHours{Enabled: p.Quiet.Enabled, Start: p.Quiet.Start, End: p.Quiet.End},
	}
	if p.Quiet.Timezone != "" {
		out.QuietHours.Timezone.SetTo(p.Quiet.Timezone)
	} else {
		out.QuietHours.Timezone.SetToNull()
	}
	for _, c := range notify.QuietCategories {
		out.QuietHoursCategories = append(out.QuietHoursCategories, string(c))
	}
	if p.UpdatedAt != nil {
		out.UpdatedAt.SetTo(p.UpdatedAt.UTC())
	} else {
		out.UpdatedAt.SetToNull()
	}
	return out
}
