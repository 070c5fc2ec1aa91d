package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/viewer"
)

// shareEnv is a venue with a staff member holding passes.manage, an owner
// whose ten-clip pass is shared, and members to share it with.
type shareEnv struct {
	*authEnv
	ctx   context.Context
	staff *api.Client
	ten   *ent.PassType
	owner *ent.Member
	pass  *ent.Pass
}

func newShareEnv(t *testing.T) *shareEnv {
	t.Helper()
	e := &shareEnv{authEnv: newAuthEnv(t, newStudio(t, "share")), ctx: context.Background()}
	_, err := jobs.Migrate(e.ctx, e.pool) // the outbox queues its e-mails as jobs
	require.NoError(t, err)
	s := e.signup(t, "desk@share.example", goodPassword)
	enroll(t, e.authEnv, e.op, "desk@share.example", "staff", billing.PermPassesManage)
	e.staff = e.client(t, s.AccessToken)
	_, err = e.staff.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	e.ten = e.db().PassType.Query().Where(passtype.Slug("ten")).OnlyX(e.op)
	_, e.owner = e.shareMember(t, "own@share.example")
	e.pass = e.db().Pass.Create().SetMemberID(e.owner.ID).SetPassTypeID(e.ten.ID).
		SetValidFrom(time.Now().AddDate(0, 0, -1)).SetClipsRemaining(5).SaveX(e.op)
	return e
}

// shareMember signs email up, enrols it as a member and returns its client.
func (e *shareEnv) shareMember(t *testing.T, email string) (*api.Client, *ent.Member) {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "member")
	return e.client(t, s.AccessToken), e.db().Member.Query().Where(member.HasUserWith(user.Email(email))).OnlyX(e.op)
}

func (e *shareEnv) add(req *api.AdminPassShareRequest, passID uuid.UUID) (*api.AdminPassShareResponse, error) {
	return e.staff.AddAdminPassShare(e.ctx, req, api.AddAdminPassShareParams{ID: passID, IdempotencyKey: uuid.NewString()})
}

func (e *shareEnv) clips(t *testing.T) int {
	t.Helper()
	return *e.db().Pass.GetX(e.op, e.pass.ID).ClipsRemaining
}

func (e *shareEnv) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, sql, args...).Scan(&n))
	return n
}

func (e *shareEnv) rows(t *testing.T) int {
	return e.count(t, `SELECT count(*) FROM pass_shares WHERE organization_id = $1`, e.venue.ID)
}

func (e *shareEnv) audits(t *testing.T, action string) int {
	return e.count(t, `SELECT count(*) FROM audit_logs WHERE organization_id = $1 AND action = $2`, e.venue.ID, action)
}

func (e *shareEnv) class(t *testing.T, start time.Time) uuid.UUID {
	t.Helper()
	return e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(start).
		SetEndTime(start.Add(time.Hour)).SetCapacity(10).SaveX(e.op).ID
}

func (e *shareEnv) book(c *api.Client, class uuid.UUID) (*api.BookingResponse, error) {
	return c.CreateBooking(e.ctx, bookReq(class), inVenue(e.venue.ID))
}

// TestPassSharing: staff share a pass with a member (monthly cap 1) and
// invite an address; the recipient books with the owner's pass (the
// owner's clip taken) up to the cap, gets the clip back on cancel, sees the
// share but not the owner's pass or payments, and books no more once the
// share is revoked; an invite is claimed by its address's first booking,
// cancelled once; every refusal changes nothing.
func TestPassSharing(t *testing.T) {
	e := newShareEnv(t)
	rec, recM := e.shareMember(t, "rec@share.example")
	_, third := e.shareMember(t, "third@share.example")
	outsider := e.signup(t, "out@share.example", goodPassword)
	ownerUser := e.db().Member.GetX(e.op, e.owner.ID).UserID

	// Not shareable until the pass type has slots.
	_, err := e.add(&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(recM.UserID)}, e.pass.ID)
	requireCode(t, err, http.StatusUnprocessableEntity, billing.CodeNoSlots)
	slots, err := e.staff.SetAdminPassTypeShareSlots(e.ctx, &api.AdminShareSlotsRequest{ShareSlots: 2},
		api.SetAdminPassTypeShareSlotsParams{PassTypeId: e.ten.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, 2, slots.Data.ShareSlots)

	// Refusals change nothing.
	op, _ := e.otherVenue(t, "elsewhere")
	far := e.db().PassType.Create().SetName("Far").SetSlug("far").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(100).SetCurrency("DKK").SetShareSlots(3).SaveX(op)
	enroll(t, e.authEnv, op, "rec@share.example", "member")
	farM := e.db().Member.Query().Where(member.UserID(recM.UserID)).OnlyX(op)
	farPass := e.db().Pass.Create().SetMemberID(farM.ID).SetPassTypeID(far.ID).SetValidFrom(time.Now()).SaveX(op)
	expired := e.db().Pass.Create().SetMemberID(e.owner.ID).SetPassTypeID(e.ten.ID).SetStatus(pass.StatusExpired).
		SetValidFrom(time.Now().AddDate(0, -1, 0)).SaveX(e.op)
	for _, c := range []struct {
		req    *api.AdminPassShareRequest
		pass   uuid.UUID
		status int
		code   string
	}{
		{&api.AdminPassShareRequest{}, e.pass.ID, 400, "VALIDATION_ERROR"},
		{&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(recM.UserID), Email: api.NewOptString("x@share.example")}, e.pass.ID, 400, "VALIDATION_ERROR"},
		{&api.AdminPassShareRequest{Email: api.NewOptString("not an address")}, e.pass.ID, 422, billing.CodeInvalidEmail},
		{&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(ownerUser)}, e.pass.ID, 422, billing.CodeOwnerRecipient},
		{&api.AdminPassShareRequest{Email: api.NewOptString("OWN@share.example")}, e.pass.ID, 422, billing.CodeOwnerRecipient},
		{&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(outsider.User.ID)}, e.pass.ID, 422, billing.CodeRecipientNotClient},
		{&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(recM.UserID)}, expired.ID, 422, billing.CodePassNotActive},
		{&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(recM.UserID)}, farPass.ID, 404, "NOT_FOUND"},
		{&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(recM.UserID), MonthlyCap: api.NewOptInt(0)}, e.pass.ID, 400, "VALIDATION_ERROR"},
	} {
		_, err := e.add(c.req, c.pass)
		requireCode(t, err, c.status, c.code)
	}
	require.Zero(t, e.rows(t))
	require.Zero(t, e.audits(t, billing.AuditShareCreated)+e.audits(t, billing.AuditShareInvited))

	// A member: an active share at once; twice is ALREADY_SHARED.
	sh, err := e.add(&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(recM.UserID), MonthlyCap: api.NewOptInt(1)}, e.pass.ID)
	require.NoError(t, err)
	require.Equal(t, api.AdminPassShareStatusActive, sh.Data.Status)
	require.Equal(t, recM.ID, sh.Data.RecipientMemberID.Value)
	require.Equal(t, recM.UserID, sh.Data.RecipientUserID.Value)
	require.Equal(t, 1, sh.Data.MonthlyCap.Value)
	_, err = e.add(&api.AdminPassShareRequest{Email: api.NewOptString("rec@share.example")}, e.pass.ID)
	requireCode(t, err, http.StatusUnprocessableEntity, billing.CodeAlreadyShared)

	// Someone who is not a member: an invite, e-mailed because asked.
	inv, err := e.add(&api.AdminPassShareRequest{Email: api.NewOptString("New@Share.example"), Notify: api.NewOptBool(true)}, e.pass.ID)
	require.NoError(t, err)
	require.Equal(t, api.AdminPassShareStatusInvited, inv.Data.Status)
	require.Equal(t, "new@share.example", inv.Data.Email.Value)
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM notification_deliveries WHERE organization_id = $1 AND kind = $2 AND address = $3`,
		e.venue.ID, billing.KindShareInvite, "new@share.example"))
	_, err = e.add(&api.AdminPassShareRequest{RecipientUserID: api.NewOptUUID(third.UserID)}, e.pass.ID)
	requireCode(t, err, http.StatusUnprocessableEntity, billing.CodeNoSlots)
	got, err := e.staff.GetAdminPassShares(e.ctx, api.GetAdminPassSharesParams{ID: e.pass.ID})
	require.NoError(t, err)
	require.Len(t, got.Data.Shares, 1)
	require.Len(t, got.Data.Invites, 1)
	require.Equal(t, 2, got.Data.UsedSlots)
	require.Equal(t, 1, e.audits(t, billing.AuditShareCreated))
	require.Equal(t, 1, e.audits(t, billing.AuditShareInvited))

	// The recipient books with the owner's pass, once this month (cap 1).
	start := time.Now().Add(72 * time.Hour).Truncate(time.Minute) // outside the late-cancel window
	a, b := e.class(t, start), e.class(t, start.Add(time.Minute))
	res, err := e.book(rec, a)
	require.NoError(t, err)
	require.Equal(t, e.pass.ID, res.Data.PassID.Value)
	require.Equal(t, 4, e.clips(t), "the clip is the owner's")
	_, err = e.book(rec, b)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodePassNotUsable)
	require.Equal(t, 4, e.clips(t))

	// The member wall: the recipient sees the share, not the owner's pass or payments.
	asRec := viewer.NewContext(e.ctx, viewer.User{UserID: recM.UserID, Org: e.venue.ID, MemberID: recM.ID})
	require.Equal(t, 1, e.db().PassShare.Query().CountX(asRec))
	require.Zero(t, e.db().Pass.Query().CountX(asRec))
	require.Zero(t, e.db().Payment.Query().CountX(asRec))
	asThird := viewer.NewContext(e.ctx, viewer.User{UserID: third.UserID, Org: e.venue.ID, MemberID: third.ID})
	require.Zero(t, e.db().PassShare.Query().CountX(asThird), "another member sees no share")

	// Cancelling gives the owner's clip back and frees the month's booking.
	_, err = rec.CancelBooking(e.ctx, api.CancelBookingParams{ID: res.Data.ID})
	require.NoError(t, err)
	require.Equal(t, 5, e.clips(t))
	_, err = e.book(rec, b)
	require.NoError(t, err)
	require.Equal(t, 4, e.clips(t))

	// Revoked: no more bookings with it; revoking twice is not found.
	shareID := sh.Data.ID
	rv, err := e.staff.RevokeAdminPassShare(e.ctx, api.RevokeAdminPassShareParams{ID: e.pass.ID, ShareId: shareID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, api.AdminPassShareStatusRevoked, rv.Data.Status)
	_, err = e.staff.RevokeAdminPassShare(e.ctx, api.RevokeAdminPassShareParams{ID: e.pass.ID, ShareId: shareID, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	next := time.Now().Add(5 * 24 * time.Hour).Truncate(time.Minute)
	_, err = e.book(rec, e.class(t, next))
	require.Error(t, err)
	require.Equal(t, 4, e.clips(t))
	require.Equal(t, 1, e.audits(t, billing.AuditShareRevoked))

	// The invite: cancelled once; then a new one is claimed by a booking.
	_, err = e.staff.CancelAdminPassShareInvite(e.ctx, api.CancelAdminPassShareInviteParams{ID: e.pass.ID, InviteId: inv.Data.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	_, err = e.staff.CancelAdminPassShareInvite(e.ctx, api.CancelAdminPassShareInviteParams{ID: e.pass.ID, InviteId: inv.Data.ID, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusUnprocessableEntity, billing.CodeInviteNotPending)
	_, err = e.staff.CancelAdminPassShareInvite(e.ctx, api.CancelAdminPassShareInviteParams{ID: e.pass.ID, InviteId: shareID, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, 1, e.audits(t, billing.AuditShareInviteCancelled))
	late, err := e.add(&api.AdminPassShareRequest{Email: api.NewOptString("late@share.example")}, e.pass.ID)
	require.NoError(t, err)
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM notification_deliveries WHERE organization_id = $1 AND kind = $2`,
		e.venue.ID, billing.KindShareInvite), "no e-mail unless asked")
	lateC, lateM := e.shareMember(t, "late@share.example")
	res, err = e.book(lateC, e.class(t, next.Add(time.Hour)))
	require.NoError(t, err)
	require.Equal(t, e.pass.ID, res.Data.PassID.Value)
	require.Equal(t, 3, e.clips(t))
	claimed := e.db().PassShare.GetX(e.op, late.Data.ID)
	require.Equal(t, lateM.ID, *claimed.MemberID)

	// Permission and another venue's pass.
	plain := e.signup(t, "plain@share.example", goodPassword)
	enroll(t, e.authEnv, e.op, "plain@share.example", "staff")
	pc := e.client(t, plain.AccessToken)
	_, err = pc.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	_, err = pc.GetAdminPassShares(e.ctx, api.GetAdminPassSharesParams{ID: e.pass.ID})
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.staff.GetAdminPassShares(e.ctx, api.GetAdminPassSharesParams{ID: farPass.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
}
