package refunds

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/refund"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/pagination"
)

// ReceiptKind is the notification kind of a refund receipt.
const ReceiptKind = "refund.receipt"

// Receipt is what a refund receipt says.
type Receipt struct {
	Refund        *ent.Refund
	Number        string
	PaymentNumber string
	Date          time.Time
	VenueName     string
	VenueAddress  string
	Customer      string
	PaymentMinor  int64
}

// receiptOf reads what the receipt of rf shows.
func receiptOf(ctx context.Context, c *ent.Client, rf *ent.Refund) (*Receipt, error) {
	org, err := c.Organization.Query().Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("refunds: venue: %w", err)
	}
	pay, err := c.Payment.Get(ctx, rf.PaymentID)
	if err != nil {
		return nil, fmt.Errorf("refunds: payment: %w", err)
	}
	r := &Receipt{Refund: rf, Number: "R-" + strings.ToUpper(rf.ID.String()[:8]),
		PaymentNumber: strings.ToUpper(pay.ID.String()[:8]), Date: rf.CreatedAt, VenueName: org.Name,
		VenueAddress: joinNonEmpty(", ", org.Address, org.City, org.Country), PaymentMinor: pay.AmountMinor}
	if rf.RefundedAt != nil {
		r.Date = *rf.RefundedAt
	}
	if rf.MemberID != nil {
		if m, err := c.Member.Query().Where(member.ID(*rf.MemberID)).WithUser().Only(ctx); err == nil && m.Edges.User != nil {
			u := m.Edges.User
			r.Customer = joinNonEmpty(", ", strings.TrimSpace(u.FirstName+" "+u.LastName), u.Email)
		}
	}
	return r, nil
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

// Render makes the refund receipt's PDF (fpdf, Helvetica through its cp1252
// translator, as payment receipts); the same refund gives the same bytes.
func Render(r *Receipt) ([]byte, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(false)
	pdf.SetCatalogSort(true)
	pdf.SetCreationDate(r.Date.UTC())
	pdf.SetModificationDate(r.Date.UTC())
	tr := pdf.UnicodeTranslatorFromDescriptor("")
	pdf.SetTitle("Refund receipt "+r.Number, true)
	pdf.SetAuthor(r.VenueName, true)
	pdf.SetCreator("venue", true)
	pdf.AddPage()
	pdf.SetFont("Helvetica", "B", 18)
	pdf.CellFormat(0, 10, tr(r.VenueName), "", 1, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	if r.VenueAddress != "" {
		pdf.CellFormat(0, 5, tr(r.VenueAddress), "", 1, "L", false, 0, "")
	}
	pdf.Ln(8)
	pdf.SetFont("Helvetica", "B", 14)
	pdf.CellFormat(0, 8, tr("Refusion / Refund receipt "+r.Number), "", 1, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	for _, l := range receiptLines(r) {
		pdf.CellFormat(0, 5, tr(l), "", 1, "L", false, 0, "")
	}
	pdf.Ln(6)
	pdf.SetFont("Helvetica", "B", 11)
	pdf.CellFormat(130, 7, tr("Refunded"), "B", 0, "L", false, 0, "")
	pdf.CellFormat(50, 7, tr(money.Format(r.Refund.AmountMinor, r.Refund.Currency)), "B", 1, "R", false, 0, "")
	if c := r.Refund.ClientReceiptComment; c != "" {
		pdf.Ln(4)
		pdf.SetFont("Helvetica", "I", 9)
		pdf.MultiCell(0, 5, tr(c), "", "L", false)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("refunds: render: %w", err)
	}
	return buf.Bytes(), nil
}

func receiptLines(r *Receipt) []string {
	rf := r.Refund
	lines := []string{"Date: " + r.Date.UTC().Format("2006-01-02 15:04") + " UTC"}
	if r.Customer != "" {
		lines = append(lines, "Customer: "+r.Customer)
	}
	lines = append(lines, "Payment: "+r.PaymentNumber+" ("+money.Format(r.PaymentMinor, rf.Currency)+")")
	to := "the card that paid"
	if rf.Destination == refund.DestinationExternal {
		to = "outside card payments"
		if rf.MethodReference != "" {
			to += " (" + rf.MethodReference + ")"
		}
	}
	lines = append(lines, "Refunded to: "+to)
	if rf.Status != refund.StatusSucceeded {
		lines = append(lines, "Status: "+string(rf.Status))
	}
	return lines
}

// Text is the refund receipt as plain text (the body of its e-mail).
func Text(r *Receipt) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nRefund receipt %s\n\n", r.VenueName, r.Number)
	for _, l := range receiptLines(r) {
		fmt.Fprintln(&b, l)
	}
	fmt.Fprintf(&b, "Refunded: %s\n", money.Format(r.Refund.AmountMinor, r.Refund.Currency))
	if c := r.Refund.ClientReceiptComment; c != "" {
		fmt.Fprintf(&b, "\n%s\n", c)
	}
	return b.String()
}

// queueReceipt e-mails the refund receipt to the member's address through
// the notification outbox, in the settling transaction (sent only if it
// commits).
func queueReceipt(ctx context.Context, tx *ent.Tx, rf *ent.Refund) error {
	if rf.MemberID == nil {
		return nil
	}
	r, err := receiptOf(ctx, tx.Client(), rf)
	if err != nil {
		return err
	}
	m, err := tx.Member.Query().Where(member.ID(*rf.MemberID)).WithUser().Only(ctx)
	if err != nil || m.Edges.User == nil || m.Edges.User.Email == "" {
		return nil // no address on file: nothing to send
	}
	_, err = notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
		To: m.Edges.User.Email, MemberID: *rf.MemberID, ToMember: true, Kind: ReceiptKind,
		Subject: fmt.Sprintf("Refund receipt %s from %s", r.Number, r.VenueName), Body: Text(r),
		Data: map[string]any{"refund_id": rf.ID.String(), "payment_id": rf.PaymentID.String()}, CorrelationID: "refund:" + rf.ID.String(),
	})
	return err
}

// Receipt loads the receipt of refund id of the viewer's venue: staff
// holding a refund permission reach every refund of the venue, a member
// viewer only its own (the member wall). Unknown, foreign and failed
// refunds are 404 NOT_FOUND.
func (s *Service) Receipt(ctx context.Context, id uuid.UUID) (*Receipt, error) {
	rf, err := s.client.Refund.Query().Where(refund.ID(id), refund.StatusNEQ(refund.StatusFailed)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("refund")
	}
	if err != nil {
		return nil, fmt.Errorf("refunds: refund: %w", err)
	}
	return receiptOf(ctx, s.client, rf)
}

// StaffReceipt is Receipt for staff holding a refund permission.
func (s *Service) StaffReceipt(ctx context.Context, id uuid.UUID) (*Receipt, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, err
	}
	return s.Receipt(ctx, id)
}

// Mine returns one page of the member's refund receipts at the viewer's
// venue (ctx acts as the member), newest first: pending and succeeded
// refunds, after the cursor after.
func (s *Service) Mine(ctx context.Context, memberID uuid.UUID, signer *pagination.Signer, limit int, after string) ([]*ent.Refund, pagination.CursorMeta, error) {
	list := "me.refunds:" + memberID.String()
	var k pagination.TimeID
	has, err := signer.After(list, after, &k)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	q := s.client.Refund.Query().Where(refund.MemberID(memberID), refund.StatusNEQ(refund.StatusFailed)).
		Order(ent.Desc(refund.FieldCreatedAt), ent.Desc(refund.FieldID)).Limit(limit + 1)
	if has {
		q.Where(refund.Or(refund.CreatedAtLT(k.At), refund.And(refund.CreatedAt(k.At), refund.IDLT(k.ID))))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, fmt.Errorf("refunds: mine: %w", err)
	}
	return pagination.Next(signer, list, rows, limit, func(r *ent.Refund) any {
		return pagination.TimeID{At: r.CreatedAt, ID: r.ID}
	})
}
