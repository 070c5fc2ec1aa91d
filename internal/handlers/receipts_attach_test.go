package handlers_test

import (
	"bytes"
	"encoding/base64"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/payment"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/payments/receipts"
	"github.com/venueplatform/venue/internal/smtptest"
)

// TestReceiptResendAttachesPDF: the resent receipt's e-mail, delivered by
// the outbox worker over SMTP, carries the receipt's PDF: the same bytes
// GET .../pdf answers, starting with %PDF.
func TestReceiptResendAttachesPDF(t *testing.T) {
	e := newPayEnv(t, false, false)
	_, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "buy-a")
	require.NoError(t, err)
	pay := e.studio.client.Payment.Query().Where(payment.KindEQ(payment.KindPassPurchase)).OnlyX(e.op)
	res, err := e.member.GetReceiptPdf(e.ctx, api.GetReceiptPdfParams{XOrganizationID: e.venue.ID, PaymentId: pay.ID})
	require.NoError(t, err)
	want, err := io.ReadAll(res.Data)
	require.NoError(t, err)

	_, err = e.member.ResendReceipt(e.ctx, api.ResendReceiptParams{XOrganizationID: e.venue.ID, PaymentId: pay.ID, IdempotencyKey: "att-1"})
	require.NoError(t, err)
	d := e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(receipts.ResendKind)).OnlyX(e.op)
	require.Equal(t, 1, e.count(t, "notification_attachments"))

	srv := smtptest.New(t)
	log := slog.New(slog.DiscardHandler)
	adapters := notify.Config{SMTP: notify.SMTPConfig{Host: "127.0.0.1", Port: srv.Port(), From: "desk@pay.example", TLS: notify.TLSOff}}.
		Adapters(log, nil, nil)
	w := notify.NewWorker(e.pool, adapters, log)
	require.NoError(t, w.Work(e.ctx, &river.Job[notify.DeliverArgs]{Args: notify.DeliverArgs{DeliveryID: d.ID},
		JobRow: &rivertype.JobRow{Attempt: 1, MaxAttempts: notify.MaxAttempts}}))
	require.Equal(t, notificationdelivery.StatusSent, e.studio.client.NotificationDelivery.GetX(e.op, d.ID).Status)

	got := srv.Messages()
	require.Len(t, got, 1)
	require.Equal(t, "buyer@pay.example", got[0].To)
	msg, err := mail.ReadMessage(strings.NewReader(got[0].Data))
	require.NoError(t, err)
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/mixed", mt)
	r := multipart.NewReader(msg.Body, params["boundary"])
	var pdfs [][]byte
	for {
		p, err := r.NextRawPart()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		raw, err := io.ReadAll(p)
		require.NoError(t, err)
		if ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); ct == "application/pdf" {
			require.Equal(t, "base64", p.Header.Get("Content-Transfer-Encoding"))
			require.True(t, strings.HasSuffix(p.FileName(), ".pdf"))
			b, err := base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(string(raw)))
			require.NoError(t, err)
			pdfs = append(pdfs, b)
		}
	}
	require.Len(t, pdfs, 1)
	require.True(t, bytes.HasPrefix(pdfs[0], []byte("%PDF")))
	require.Equal(t, want, pdfs[0], "the attachment is the receipt the PDF read answers")
}
