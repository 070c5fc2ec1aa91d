package handlers_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/classinstance"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/guests"
	"github.com/venueplatform/venue/internal/schedule"
)

// staffClient signs up email as staff of the studio holding perms, with the
// studio as the session's active organization.
func (e *guestEnv) staffClient(t *testing.T, email string, perms ...string) *api.Client {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "staff", perms...)
	c := e.client(t, s.AccessToken)
	_, err := c.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return c
}

func (e *guestEnv) setGuestPrice(c *api.Client, class uuid.UUID, amount *int64, currency, key string) (*api.ClassGuestPriceResponse, error) {
	req := &api.ClassGuestPriceRequest{}
	if amount != nil {
		req.AmountMinor.SetTo(*amount)
	} else {
		req.AmountMinor.SetToNull()
	}
	if currency != "" {
		req.Currency = api.NewOptString(currency)
	}
	return c.SetAdminClassGuestPrice(e.ctx, req, api.SetAdminClassGuestPriceParams{ID: class, IdempotencyKey: key})
}

// TestClassGuestPrice: staff holding scheduling.manage set a class's own
// guest price; the host's eligibility shows it (against the drop-in), a
// place made then freezes it and the guest's checkout charges it; clearing
// it brings back the guest-pass price for new places while the place made
// keeps its own. Bad amounts, another currency, a cancelled class, another
// venue's class and staff without the permission are refused and change
// nothing; every change is audited and a retry replays.
func TestClassGuestPrice(t *testing.T) {
	e := newGuestEnv(t, 3)
	staff := e.staffClient(t, "desk@pay.example", schedule.PermManage)
	viewer := e.staffClient(t, "viewer@pay.example", schedule.PermViewAll)
	eligibility := func() api.GuestInviteEligibilityResponseData {
		t.Helper()
		el, err := e.member.GetGuestInviteEligibility(e.ctx, api.GetGuestInviteEligibilityParams{XOrganizationID: e.venue.ID, ClassInstanceID: e.class})
		require.NoError(t, err)
		return el.Data
	}
	require.Equal(t, int64(10000), eligibility().GuestPrice.Value.AmountMinor, "the guest pass by default")

	got, err := viewer.GetAdminClassGuestPrice(e.ctx, api.GetAdminClassGuestPriceParams{ID: e.class})
	require.NoError(t, err)
	require.True(t, got.Data.Override.IsNull())
	require.Equal(t, api.ClassGuestPriceEffectiveSourceGuestPass, got.Data.Effective.Value.Source)

	// Refusals change nothing.
	_, err = e.setGuestPrice(viewer, e.class, ptr(int64(12500)), "DKK", "gp-denied")
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.setGuestPrice(staff, e.class, ptr(int64(12500)), "EUR", "gp-eur")
	hookErr(t, err, 422, "VALIDATION_FAILED")
	require.Equal(t, "currency_mismatch", reasonOf(t, err))
	for i, bad := range []int64{0, -100} {
		_, err = e.setGuestPrice(staff, e.class, ptr(bad), "DKK", "gp-bad-"+string(rune('a'+i)))
		require.Error(t, err, "amount %d", bad)
		require.Equal(t, 400, errorOf(t, err).StatusCode)
	}
	_, err = e.setGuestPrice(staff, e.class, ptr(int64(12500)), "", "gp-nocur")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	_, err = e.setGuestPrice(staff, uuid.New(), ptr(int64(12500)), "DKK", "gp-unknown")
	hookErr(t, err, 404, "NOT_FOUND")
	cancelled := e.studio.client.ClassInstance.Create().SetClassTypeID(e.studio.classType).
		SetStartTime(e.studio.today.AddDate(0, 0, 2)).SetEndTime(e.studio.today.AddDate(0, 0, 2).Add(3600e9)).
		SetCapacity(5).SetStatus(classinstance.StatusCancelled).SaveX(e.op)
	_, err = e.setGuestPrice(staff, cancelled.ID, ptr(int64(12500)), "DKK", "gp-cancelled")
	hookErr(t, err, 422, "CLASS_CANCELLED")
	require.Zero(t, e.count(t, "class_guest_prices"))
	require.Equal(t, int64(10000), eligibility().GuestPrice.Value.AmountMinor)

	// Set: 125.00 for this class, the drop-in (150.00) as compare-at.
	set, err := e.setGuestPrice(staff, e.class, ptr(int64(12500)), "DKK", "gp-1")
	require.NoError(t, err)
	require.Equal(t, int64(12500), set.Data.Override.Value.AmountMinor)
	eff := set.Data.Effective.Value
	require.Equal(t, api.ClassGuestPriceEffectiveSourceClass, eff.Source)
	require.Equal(t, int64(15000), eff.CompareAtMinor.Value)
	again, err := e.setGuestPrice(staff, e.class, ptr(int64(12500)), "DKK", "gp-1")
	require.NoError(t, err, "a retry replays")
	require.Equal(t, set.Data, again.Data)
	el := eligibility()
	require.Equal(t, int64(12500), el.GuestPrice.Value.AmountMinor)
	require.Equal(t, int64(15000), el.CompareAtPriceMinor.Value)

	// A place made now freezes 125.00 and the guest is charged it.
	made, err := e.create(e.member, api.GuestInviteCreateRequestPayerGuest, 0, "gp-place")
	require.NoError(t, err)
	token := made.Data[0].Token.Value
	require.Equal(t, int64(12500), e.resolve(t, token).GuestPrice.AmountMinor)
	co, err := e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: token})
	require.NoError(t, err)
	require.EqualValues(t, 12500, e.fake.Intent(co.Data.PaymentIntentID.Value)["amount"])

	// Cleared: the guest pass again for new places; the place keeps 125.00.
	cleared, err := e.setGuestPrice(staff, e.class, nil, "", "gp-2")
	require.NoError(t, err)
	require.True(t, cleared.Data.Override.IsNull())
	require.Equal(t, int64(10000), cleared.Data.Effective.Value.AmountMinor)
	require.Equal(t, int64(10000), eligibility().GuestPrice.Value.AmountMinor)
	require.Equal(t, int64(12500), e.resolve(t, token).GuestPrice.AmountMinor)
	require.Zero(t, e.count(t, "class_guest_prices"))

	n := e.studio.client.AuditLog.Query().Where(auditlog.Target("class:"+e.class.String()),
		auditlog.ActionIn(guests.AuditClassGuestPriceSet, guests.AuditClassGuestPriceCleared)).CountX(e.op)
	require.Equal(t, 2, n, "one set, one clear: the retry and the refusals wrote none")
}
