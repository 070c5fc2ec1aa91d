package pos

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
)

// PaymentLinkKind is the notification kind of a payment link e-mailed to the
// member by the desk.
const PaymentLinkKind = "pos.payment_link"

// CheckLinkRecipient validates a request to e-mail a payment link before
// anything is sold: the sale is a payment link to a member with an address
// (400 VALIDATION_ERROR otherwise).
func (s *Service) CheckLinkRecipient(ctx context.Context, method string, memberID uuid.UUID) error {
	if method != MethodPaymentLink {
		return apperr.Validation("notify_member", "only a payment link is sent to the member")
	}
	if memberID == uuid.Nil {
		return apperr.Validation("member_id", "name the member the payment link is sent to")
	}
	m, err := s.client.Member.Query().Where(member.ID(memberID)).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFound("member")
	} else if err != nil {
		return err
	}
	if m.Edges.User == nil || m.Edges.User.Email == "" {
		return apperr.Validation("notify_member", "the member has no e-mail address")
	}
	return nil
}

// SendPaymentLink e-mails a waiting card sale's payment link to its member
// through the notification outbox, once per sale (a retry of the sale
// request finds the queued message and queues nothing). It reports whether
// the link is (or was already) on its way.
func (s *Service) SendPaymentLink(ctx context.Context, c *CardSale) (bool, error) {
	if c == nil || c.Completed() || c.URL == "" || c.Row.MemberID == nil {
		return false, nil
	}
	corr := "pos_payment_link:" + c.Row.ID.String()
	sent := false
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if n, err := tx.NotificationDelivery.Query().Where(notificationdelivery.CorrelationID(corr)).Count(ctx); err != nil || n > 0 {
			sent = n > 0
			return err
		}
		m, err := tx.Member.Query().Where(member.ID(*c.Row.MemberID)).WithUser().Only(ctx)
		if err != nil {
			return err
		}
		if m.Edges.User == nil || m.Edges.User.Email == "" {
			return nil
		}
		org, err := tx.Organization.Query().Where(organization.ID(c.Row.OrganizationID)).Only(ctx)
		if err != nil {
			return err
		}
		total := money.Format(c.Row.TotalMinor, c.Row.Currency)
		body := fmt.Sprintf("Hello,\n\n%s has prepared your purchase of %s at the front desk.\n\nPay here: %s\n\n"+
			"The link stays open for %d minutes.\n", org.Name, total, c.URL, int(CardHold.Minutes()))
		if _, err := notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
			To: m.Edges.User.Email, MemberID: m.ID, ToMember: true, Kind: PaymentLinkKind,
			Subject: fmt.Sprintf("Your payment link from %s: %s", org.Name, total), Body: body,
			Data: map[string]any{"sale_id": c.Row.ID.String()}, CorrelationID: corr,
		}); err != nil {
			return err
		}
		sent = true
		return nil
	})
	return sent, err
}
