// Package receipts makes the receipt of a member's payment: a PDF with the
// venue, what was bought, the total and the VAT lines (the VAT frozen on the
// checkout that took the payment; none on a gift card, a multi-purpose
// voucher whose VAT falls due when it is spent; otherwise the VAT share at
// the venue's rate), and its resend by e-mail through the notification
// outbox with the PDF attached, once per request key.
//
// Receipts are rendered with fpdf in Helvetica through its cp1252
// translator, so Danish letters (æ ø å) print right; the PDF's creation date
// is the payment's time and the catalog sorted, so a receipt's bytes are the
// same every time it is made.
package receipts

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/payments"
)

// ResendKind is the notification kind of a resent receipt.
const ResendKind = "payment.receipt"

// Receipt is what a receipt says.
type Receipt struct {
	PaymentID   uuid.UUID
	Number      string
	PaidAt      time.Time
	Venue       Party
	Customer    Party
	Description string
	TotalMinor  int64
	Currency    string
	// VATRateBP and VATMinor are the VAT inside the total; VATNote
	// explains a total without VAT.
	VATRateBP int
	VATMinor  int64
	VATNote   string
	Status    string
}

// Party is a receipt's venue or customer.
type Party struct {
	Name, Address, Email, Phone string
}

// Service makes receipts over one ent client.
type Service struct {
	client *ent.Client
}

// New returns a Service.
func New(client *ent.Client) *Service { return &Service{client: client} }

// Load reads the receipt of payment id of the viewer's venue. A member
// viewer reaches only its own payments (the member wall); unknown, foreign
// and not yet paid payments are 404 NOT_FOUND.
func (s *Service) Load(ctx context.Context, id uuid.UUID) (*Receipt, error) {
	notFound := apperr.NotFound("payment")
	p, err := s.client.Payment.Query().Where(payment.ID(id),
		payment.StatusIn(payment.StatusSucceeded, payment.StatusRefunded, payment.StatusPartiallyRefunded),
		payment.PaidAtNotNil()).
		WithPass(func(q *ent.PassQuery) { q.WithPassType() }).
		WithMember(func(q *ent.MemberQuery) { q.WithUser() }).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFound
	}
	if err != nil {
		return nil, fmt.Errorf("receipts: payment: %w", err)
	}
	org, err := s.client.Organization.Query().Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("receipts: venue: %w", err)
	}
	r := &Receipt{
		PaymentID: p.ID, Number: strings.ToUpper(p.ID.String()[:8]), PaidAt: *p.PaidAt,
		Venue:       Party{Name: org.Name, Address: joinNonEmpty(", ", org.Address, org.City, org.Country), Email: org.Email, Phone: org.Phone},
		Description: describe(p), TotalMinor: p.AmountMinor, Currency: p.Currency, Status: string(p.Status),
	}
	if m := p.Edges.Member; m != nil && m.Edges.User != nil {
		u := m.Edges.User
		r.Customer = Party{Name: strings.TrimSpace(u.FirstName + " " + u.LastName), Email: u.Email}
	}
	if err := s.vat(ctx, p, r); err != nil {
		return nil, err
	}
	return r, nil
}

func describe(p *ent.Payment) string {
	if ps := p.Edges.Pass; ps != nil && ps.Edges.PassType != nil {
		return ps.Edges.PassType.Name
	}
	switch p.Kind {
	case payment.KindGiftCard:
		return "Gift card"
	case payment.KindPassPurchase, payment.KindRenewal:
		return "Pass"
	case payment.KindDropIn:
		return "Drop-in"
	case payment.KindProduct:
		return "Product"
	case payment.KindFee:
		return "Fee"
	}
	return "Payment"
}

// vat fills the VAT lines: frozen on the checkout that took the payment;
// none for a gift card; else the share at the venue's rate.
func (s *Service) vat(ctx context.Context, p *ent.Payment, r *Receipt) error {
	if p.Kind == payment.KindGiftCard {
		r.VATNote = "No VAT on a gift card: VAT is due on what it is spent on."
		return nil
	}
	if p.ProcessorPaymentID != nil {
		co, err := s.client.Checkout.Query().Where(checkout.PaymentIntentID(*p.ProcessorPaymentID)).Only(ctx)
		if err == nil {
			r.VATRateBP, r.VATMinor = co.VatRateBp, co.VatMinor
			return nil
		}
		if !ent.IsNotFound(err) {
			return fmt.Errorf("receipts: checkout: %w", err)
		}
	}
	rate := 2500
	vp, err := s.client.VenuePayments.Query().Only(ctx)
	switch {
	case err == nil:
		rate = vp.VatRateBp
	case !ent.IsNotFound(err):
		return fmt.Errorf("receipts: venue settings: %w", err)
	}
	r.VATRateBP, r.VATMinor = rate, payments.VATShare(p.AmountMinor, rate)
	return nil
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// Render makes the receipt's PDF; the same receipt gives the same bytes.
func Render(r *Receipt) ([]byte, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(false)
	pdf.SetCatalogSort(true)
	pdf.SetCreationDate(r.PaidAt.UTC())
	pdf.SetModificationDate(r.PaidAt.UTC())
	tr := pdf.UnicodeTranslatorFromDescriptor("") // cp1252: æ ø å Æ Ø Å
	pdf.SetTitle("Receipt "+r.Number, true)
	pdf.SetAuthor(r.Venue.Name, true)
	pdf.SetCreator("venue", true)
	pdf.AddPage()
	pdf.SetFont("Helvetica", "B", 18)
	pdf.CellFormat(0, 10, tr(r.Venue.Name), "", 1, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	for _, l := range []string{r.Venue.Address, r.Venue.Email, r.Venue.Phone} {
		if l != "" {
			pdf.CellFormat(0, 5, tr(l), "", 1, "L", false, 0, "")
		}
	}
	pdf.Ln(8)
	pdf.SetFont("Helvetica", "B", 14)
	pdf.CellFormat(0, 8, tr("Kvittering / Receipt "+r.Number), "", 1, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	pdf.CellFormat(0, 5, tr("Date: "+r.PaidAt.UTC().Format("2006-01-02 15:04")+" UTC"), "", 1, "L", false, 0, "")
	if r.Customer.Name != "" || r.Customer.Email != "" {
		pdf.CellFormat(0, 5, tr("Customer: "+joinNonEmpty(", ", r.Customer.Name, r.Customer.Email)), "", 1, "L", false, 0, "")
	}
	if r.Status != string(payment.StatusSucceeded) {
		pdf.CellFormat(0, 5, tr("Status: "+strings.ReplaceAll(r.Status, "_", " ")), "", 1, "L", false, 0, "")
	}
	pdf.Ln(6)
	line := func(label, amount string, bold bool) {
		style := ""
		if bold {
			style = "B"
		}
		pdf.SetFont("Helvetica", style, 11)
		pdf.CellFormat(130, 7, tr(label), "B", 0, "L", false, 0, "")
		pdf.CellFormat(50, 7, tr(amount), "B", 1, "R", false, 0, "")
	}
	line(r.Description, money.Format(r.TotalMinor, r.Currency), false)
	if r.VATNote == "" {
		line("Excl. VAT (uden moms)", money.Format(r.TotalMinor-r.VATMinor, r.Currency), false)
		line(fmt.Sprintf("VAT (moms) %s %%", percent(r.VATRateBP)), money.Format(r.VATMinor, r.Currency), false)
	}
	line("Total", money.Format(r.TotalMinor, r.Currency), true)
	if r.VATNote != "" {
		pdf.Ln(4)
		pdf.SetFont("Helvetica", "I", 9)
		pdf.MultiCell(0, 5, tr(r.VATNote), "", "L", false)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("receipts: render: %w", err)
	}
	return buf.Bytes(), nil
}

// percent writes basis points as a percentage: 2500 is 25, 1250 is 12.5.
func percent(bp int) string {
	if bp%100 == 0 {
		return fmt.Sprintf("%d", bp/100)
	}
	return strings.TrimRight(fmt.Sprintf("%d.%02d", bp/100, bp%100), "0")
}

// Resend e-mails the receipt of payment id to the member's address on file,
// with its PDF attached (the same bytes GET .../pdf answers), once per
// requestKey: a second call with the same key finds the first
// delivery and queues nothing. It reports whether this call queued it.
func (s *Service) Resend(ctx context.Context, id uuid.UUID, requestKey string) (bool, error) {
	r, err := s.Load(ctx, id)
	if err != nil {
		return false, err
	}
	p, err := s.client.Payment.Get(ctx, id)
	if err != nil {
		return false, err
	}
	if r.Customer.Email == "" || p.MemberID == nil {
		return false, apperr.Validation("paymentId", "the payment has no member address on file")
	}
	pdf, err := Render(r)
	if err != nil {
		return false, err
	}
	correlation := "receipt:" + id.String() + ":" + requestKey
	queued := false
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		// The payment row's lock serialises resends of one payment.
		if _, err := tx.Payment.Query().Where(payment.ID(id)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		n, err := tx.NotificationDelivery.Query().Where(notificationdelivery.Kind(ResendKind),
			notificationdelivery.CorrelationID(correlation)).Count(ctx)
		if err != nil || n > 0 {
			return err
		}
		_, err = notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
			To: r.Customer.Email, MemberID: *p.MemberID, ToMember: true, Kind: ResendKind,
			Subject: fmt.Sprintf("Receipt %s from %s", r.Number, r.Venue.Name), Body: Text(r),
			Data:          map[string]any{"payment_id": id.String()},
			CorrelationID: correlation,
			Attachments:   []notify.Attachment{{Filename: "receipt-" + r.Number + ".pdf", ContentType: "application/pdf", Data: pdf}},
		})
		queued = err == nil
		return err
	})
	return queued, err
}

// Text is the receipt as plain text (the body of its e-mail).
func Text(r *Receipt) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nReceipt %s, %s UTC\n\n", r.Venue.Name, r.Number, r.PaidAt.UTC().Format("2006-01-02 15:04"))
	fmt.Fprintf(&b, "%s: %s\n", r.Description, money.Format(r.TotalMinor, r.Currency))
	if r.VATNote == "" {
		fmt.Fprintf(&b, "VAT %s %%: %s\n", percent(r.VATRateBP), money.Format(r.VATMinor, r.Currency))
	} else {
		fmt.Fprintf(&b, "%s\n", r.VATNote)
	}
	fmt.Fprintf(&b, "Total: %s\n", money.Format(r.TotalMinor, r.Currency))
	return b.String()
}
