package handlers_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/receipts"
)

// TestAdminReceiptEmails: staff with members.contact and notifications.send
// e-mail a paid payment's receipt (sent), the same payment named again in
// the request finds its delivery (deduped), an unknown payment is
// ineligible; without notifications.send nothing is queued.
func TestAdminReceiptEmails(t *testing.T) {
	e := newRefundEnv(t)
	receiptsQueued := func() int {
		return e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(receipts.ResendKind)).CountX(e.op)
	}

	_, err := e.staffWith(t, "contact-only@pay.example", "members.contact").EmailAdminPaymentReceipts(e.ctx,
		&api.ReceiptEmailsRequest{PaymentIds: []uuid.UUID{e.pay.ID}}, api.EmailAdminPaymentReceiptsParams{IdempotencyKey: "r-0"})
	hookErr(t, err, 403, "ACCESS_DENIED")
	require.Zero(t, receiptsQueued())

	desk := e.staffWith(t, "receipts@pay.example", "members.contact", "notifications.send")
	unknown := uuid.New()
	res, err := desk.EmailAdminPaymentReceipts(e.ctx, &api.ReceiptEmailsRequest{PaymentIds: []uuid.UUID{e.pay.ID, e.pay.ID, unknown}},
		api.EmailAdminPaymentReceiptsParams{IdempotencyKey: "r-1"})
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, []int{1, 1, 1, 0}, []int{d.Sent, d.Deduped, d.Ineligible, d.Failed})
	require.Len(t, d.Items, 3)
	require.Equal(t, api.ReceiptEmailItemOutcomeSent, d.Items[0].Outcome)
	require.True(t, d.Items[0].Reason.IsNull())
	require.Equal(t, api.ReceiptEmailItemOutcomeDeduped, d.Items[1].Outcome)
	require.Equal(t, unknown, d.Items[2].PaymentID)
	require.Equal(t, api.ReceiptEmailItemOutcomeIneligible, d.Items[2].Outcome)
	require.Equal(t, "not_found", d.Items[2].Reason.Value)
	require.Equal(t, 1, receiptsQueued())
	require.Equal(t, 1, e.count(t, "notification_attachments"), "the receipt PDF rides with the e-mail")

	// A retry with the same key replays the answer and queues nothing.
	again, err := desk.EmailAdminPaymentReceipts(e.ctx, &api.ReceiptEmailsRequest{PaymentIds: []uuid.UUID{e.pay.ID, e.pay.ID, unknown}},
		api.EmailAdminPaymentReceiptsParams{IdempotencyKey: "r-1"})
	require.NoError(t, err)
	require.Equal(t, d, again.Data)
	require.Equal(t, 1, receiptsQueued())
}

// TestAdminProfileUpdateRequest: staff with members.contact ask a client to
// update a field once per 24 hours; another field may be asked at once; an
// unknown client is CLIENT_NOT_FOUND; a refusal sends and records nothing.
func TestAdminProfileUpdateRequest(t *testing.T) {
	e := newRefundEnv(t)
	memberID := *e.pay.MemberID
	requests := func() int {
		return e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(billing.ProfileRequestKind)).CountX(e.op)
	}
	audits := func() int {
		return e.db().AuditLog.Query().Where(auditlog.Action(billing.AuditProfileRequested)).CountX(e.op)
	}
	ask := func(c *api.Client, m uuid.UUID, field api.ProfileUpdateRequestCreateField, ch api.ProfileUpdateRequestCreateChannel, key string) (*api.ProfileUpdateRequestResponse, error) {
		return c.CreateAdminProfileUpdateRequest(e.ctx, &api.ProfileUpdateRequestCreate{Field: field, Channel: ch},
			api.CreateAdminProfileUpdateRequestParams{MemberId: m, IdempotencyKey: key})
	}

	_, err := ask(e.staffWith(t, "nobody@pay.example", "passes.manage"), memberID, api.ProfileUpdateRequestCreateFieldPhone,
		api.ProfileUpdateRequestCreateChannelEmail, "p-0")
	hookErr(t, err, 403, "ACCESS_DENIED")

	desk := e.staffWith(t, "profile@pay.example", "members.contact")
	res, err := ask(desk, memberID, api.ProfileUpdateRequestCreateFieldPhone, api.ProfileUpdateRequestCreateChannelEmail, "p-1")
	require.NoError(t, err)
	require.Equal(t, memberID, res.Data.MemberID)
	require.Equal(t, api.ProfileUpdateRequestFieldPhone, res.Data.Field)
	require.Equal(t, res.Data.RequestedAt.Add(billing.ProfileRequestWindow), res.Data.NextAllowedAt)
	dl := e.db().NotificationDelivery.GetX(e.op, res.Data.DeliveryID)
	require.Equal(t, "buyer@pay.example", dl.Address)
	require.Equal(t, 1, audits())

	// The same field again, by another request: refused, nothing sent or recorded.
	_, err = ask(desk, memberID, api.ProfileUpdateRequestCreateFieldPhone, api.ProfileUpdateRequestCreateChannelEmail, "p-2")
	es := hookErr(t, err, 422, billing.CodeProfileRequestFailed)
	require.Equal(t, billing.ReasonRecentlyRequested, es.Response.Error.Details.Reason.Or(""))
	require.Equal(t, 1, requests())
	require.Equal(t, 1, audits())

	// Another field may be asked at once.
	_, err = ask(desk, memberID, api.ProfileUpdateRequestCreateFieldAddress, api.ProfileUpdateRequestCreateChannelEmail, "p-3")
	require.NoError(t, err)
	require.Equal(t, 2, requests())

	// Once the last request is older than 24 hours the field may be asked again.
	_, err = e.pool.Exec(e.ctx, `UPDATE notification_deliveries SET created_at = created_at - interval '25 hours' WHERE id = $1`,
		res.Data.DeliveryID)
	require.NoError(t, err)
	_, err = ask(desk, memberID, api.ProfileUpdateRequestCreateFieldPhone, api.ProfileUpdateRequestCreateChannelEmail, "p-4")
	require.NoError(t, err)
	require.Equal(t, 3, requests())
	require.Equal(t, 3, audits())

	_, err = ask(desk, uuid.New(), api.ProfileUpdateRequestCreateFieldPhone, api.ProfileUpdateRequestCreateChannelEmail, "p-5")
	hookErr(t, err, 404, "CLIENT_NOT_FOUND")
	require.Equal(t, 3, requests())
	require.Equal(t, 3, audits())
}

// TestAdminMemberContactBadInput: bodies the generated client refuses to
// send are 400 VALIDATION_ERROR and queue nothing.
func TestAdminMemberContactBadInput(t *testing.T) {
	e := newRefundEnv(t)
	s := e.signup(t, "bad-input@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "bad-input@pay.example", "staff", "members.contact", "notifications.send")
	_, err := e.client(t, s.AccessToken).SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	ids := make([]string, 101)
	for i := range ids {
		ids[i] = `"` + uuid.NewString() + `"`
	}
	profile := "/admin/members/" + e.pay.MemberID.String() + "/profile-update-requests"
	for _, c := range []struct{ path, body string }{
		{"/admin/payments/receipt-emails", `{"payment_ids":[]}`},
		{"/admin/payments/receipt-emails", `{"payment_ids":["not-a-uuid"]}`},
		{"/admin/payments/receipt-emails", `{"payment_ids":[` + strings.Join(ids, ",") + `]}`},
		{"/admin/payments/receipt-emails", `{"payment_ids":["` + e.pay.ID.String() + `"],"extra":1}`},
		{profile, `{"field":"shoe_size","channel":"email"}`},
		{profile, `{"field":"phone","channel":"fax"}`},
		{profile, `{"field":"phone"}`},
	} {
		st, b := e.rawStaff(t, s.AccessToken, c.path, c.body)
		require.Equal(t, http.StatusBadRequest, st, c.body)
		require.Contains(t, b, `"VALIDATION_ERROR"`, c.body)
	}
	require.Zero(t, e.count(t, "notification_deliveries"))
}

func (e *refundEnv) rawStaff(t *testing.T, token, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1"+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", uuid.NewString())
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}
