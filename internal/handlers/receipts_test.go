package handlers_test

import (
	"io"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/payment"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/receipts"
)

func (e *payEnv) receiptText(t *testing.T, c *api.Client, id uuid.UUID) string {
	t.Helper()
	res, err := c.GetReceiptPdf(e.ctx, api.GetReceiptPdfParams{XOrganizationID: e.venue.ID, PaymentId: id})
	require.NoError(t, err)
	pdf, err := io.ReadAll(res.Data)
	require.NoError(t, err)
	require.Equal(t, "%PDF-", string(pdf[:5]))
	return receipts.PDFText(pdf)
}

// TestReceiptPdfAndResend: a bought pass's receipt shows the venue in
// Danish letters and the VAT frozen on the checkout; a gift card's shows no
// VAT; another member's receipt is not found; a resend e-mails the member
// once per Idempotency-Key.
func TestReceiptPdfAndResend(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.studio.client.Organization.UpdateOneID(e.venue.ID).SetName("Yoga på Østerbro").SetAddress("Ærøgade 5").ExecX(e.op)
	_, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "buy-r")
	require.NoError(t, err)
	pay := e.studio.client.Payment.Query().Where(payment.KindEQ(payment.KindPassPurchase)).OnlyX(e.op)

	text := e.receiptText(t, e.member, pay.ID)
	for _, want := range []string{"Yoga på Østerbro", "Ærøgade 5", e.ten.Name, "1200.00 DKK", "VAT (moms) 25 %", "240.00 DKK", "buyer@pay.example"} {
		require.Contains(t, text, want)
	}

	_, err = e.buyCard(e.member, 30000, "", "pm_card_visa", "gift-r", time.Time{})
	require.NoError(t, err)
	gift := e.studio.client.Payment.Query().Where(payment.KindEQ(payment.KindGiftCard)).OnlyX(e.op)
	text = e.receiptText(t, e.member, gift.ID)
	require.Contains(t, text, "300.00 DKK")
	require.Contains(t, text, "No VAT on a gift card")
	require.NotContains(t, text, "moms")

	nosy := e.memberClient(t, "nosy@pay.example")
	_, err = nosy.GetReceiptPdf(e.ctx, api.GetReceiptPdfParams{XOrganizationID: e.venue.ID, PaymentId: pay.ID})
	hookErr(t, err, 404, "NOT_FOUND")
	_, err = nosy.ResendReceipt(e.ctx, api.ResendReceiptParams{XOrganizationID: e.venue.ID, PaymentId: pay.ID, IdempotencyKey: "n-1"})
	hookErr(t, err, 404, "NOT_FOUND")

	resend := func(key string) *api.ReceiptResendResponse {
		res, err := e.member.ResendReceipt(e.ctx, api.ResendReceiptParams{XOrganizationID: e.venue.ID, PaymentId: pay.ID, IdempotencyKey: key})
		require.NoError(t, err)
		return res
	}
	require.True(t, resend("rs-1").Data.Queued)
	require.True(t, resend("rs-1").Data.Queued, "the same key replays the first answer")
	sent := e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(receipts.ResendKind)).AllX(e.op)
	require.Len(t, sent, 1)
	require.Equal(t, "buyer@pay.example", sent[0].Address)
	require.Contains(t, sent[0].Body, "VAT 25 %: 240.00 DKK")
	require.True(t, resend("rs-2").Data.Queued)
	require.Equal(t, 2, e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(receipts.ResendKind)).CountX(e.op))
}
