package importer

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/alert"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/members"
)

// writeMembers enrols the document's members through package members; new
// people get accounts in state imported_unclaimed.
func (p *plan) writeMembers(ctx context.Context, c *ent.Client) (created int, err error) {
	params := make([]members.EnrollParams, len(p.members))
	for i, m := range p.members {
		params[i] = members.EnrollParams{
			Email:           m.email,
			FirstName:       m.in.FirstName,
			LastName:        m.in.LastName,
			Phone:           m.in.Phone,
			ClientDisplayID: m.in.ClientDisplayID,
			JoinedAt:        m.joinedAt,
			ImportRef:       m.in.Ref,
			Status:          m.in.Status,
			AccountState:    string(user.AccountStateImportedUnclaimed),
		}
	}
	for start := 0; start < len(params); start += bulkSize * 4 {
		end := min(start+bulkSize*4, len(params))
		out, err := members.EnrollAll(ctx, c, params[start:end])
		var ie *members.ItemError
		if errors.As(err, &ie) {
			p.ps.add(p.members[start+ie.Index].it, ie.Field, "%v", ie.Err)
			return 0, p.ps.err()
		}
		if err != nil {
			return 0, fmt.Errorf("enrol members: %w", err)
		}
		for k, e := range out {
			p.ids[SecMembers][p.members[start+k].in.Ref] = e.Member.ID
			if e.CreatedMember {
				created++
			}
		}
		p.advance(end - start)
	}
	return created, nil
}

func (p *plan) memberID(ref string) uuid.UUID { return p.ids[SecMembers][ref] }

func (p *plan) writePasses(ctx context.Context, c *ent.Client) error {
	var creates []*ent.PassCreate
	for _, ps := range p.passes {
		in := ps.in
		fill := func(m *ent.PassMutation) {
			m.SetImportRef(in.Ref)
			if mid := p.memberID(in.Member); ps.ex == nil || ps.ex.MemberID != mid {
				m.SetMemberID(mid)
			}
			if ps.ex == nil || ps.ex.PassTypeID != ps.passType {
				m.SetPassTypeID(ps.passType)
			}
			m.SetStatus(pass.Status(ps.status))
			m.SetValidFrom(ps.validFrom)
			if ps.validTo != nil {
				m.SetValidTo(*ps.validTo)
			} else {
				m.ClearValidTo()
			}
			setInt(in.ClipsRemaining, m.SetClipsRemaining, m.ClearClipsRemaining)
		}
		if ps.ex == nil {
			pc := c.Pass.Create().SetID(ps.id)
			fill(pc.Mutation())
			creates = append(creates, pc)
			continue
		}
		if unchangedPass(ps.ex, ps, p.memberID(in.Member)) {
			p.advance(1)
			continue
		}
		pu := c.Pass.Update().Where(pass.ID(ps.id))
		fill(pu.Mutation())
		if err := pu.Exec(ctx); err != nil {
			return fmt.Errorf("update pass %q: %w", in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.PassCreate) error {
		return c.Pass.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeBookings(ctx context.Context, c *ent.Client) error {
	var creates []*ent.BookingCreate
	for _, b := range p.bookings {
		in := b.in
		fill := func(m *ent.BookingMutation) {
			create := b.ex == nil
			m.SetImportRef(in.Ref)
			if mid := p.memberID(in.Member); create || b.ex.MemberID != mid {
				m.SetMemberID(mid)
			}
			if create || b.ex.ClassInstanceID != b.class {
				m.SetClassInstanceID(b.class)
			}
			var oldPass *uuid.UUID
			if !create {
				oldPass = b.ex.PassID
			}
			optionalFK(create, oldPass, b.pass, m.SetPassID, m.ClearPassID)
			m.SetStatus(booking.Status(b.status))
			setTime(b.cancelledAt, m.SetCancelledAt, m.ClearCancelledAt)
			setTime(b.checkedInAt, m.SetCheckedInAt, m.ClearCheckedInAt)
			setInt(b.waitlistPosition, m.SetWaitlistPosition, m.ClearWaitlistPosition)
		}
		if b.ex == nil {
			bc := c.Booking.Create().SetID(b.id)
			if b.createdAt != nil {
				bc.SetCreatedAt(*b.createdAt)
			}
			fill(bc.Mutation())
			creates = append(creates, bc)
			continue
		}
		if unchangedBooking(b.ex, b, p.memberID(in.Member)) {
			p.advance(1)
			continue
		}
		bu := c.Booking.Update().Where(booking.ID(b.id))
		fill(bu.Mutation())
		if err := bu.Exec(ctx); err != nil {
			return fmt.Errorf("update booking %q: %w", in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.BookingCreate) error {
		return c.Booking.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writePayments(ctx context.Context, c *ent.Client) error {
	var creates []*ent.PaymentCreate
	for _, pm := range p.payments {
		in := pm.in
		member := pm.member
		if pm.memberRef != "" {
			id := p.memberID(pm.memberRef)
			member = &id
		}
		fill := func(m *ent.PaymentMutation) {
			create := pm.ex == nil
			var oldMember, oldPass *uuid.UUID
			if !create {
				oldMember, oldPass = pm.ex.MemberID, pm.ex.PassID
			}
			m.SetImportRef(in.Ref)
			optionalFK(create, oldMember, member, m.SetMemberID, m.ClearMemberID)
			optionalFK(create, oldPass, pm.pass, m.SetPassID, m.ClearPassID)
			m.SetAmountMinor(*in.AmountMinor)
			m.SetCurrency(in.Currency)
			m.SetStatus(payment.Status(pm.status))
			m.SetKind(payment.Kind(pm.kind))
			setTime(pm.paidAt, m.SetPaidAt, m.ClearPaidAt)
			text(in.ProcessorPaymentID, m.SetProcessorPaymentID, m.ClearProcessorPaymentID)
		}
		if pm.ex == nil {
			pc := c.Payment.Create().SetID(pm.id)
			fill(pc.Mutation())
			creates = append(creates, pc)
			continue
		}
		if unchangedPayment(pm.ex, pm, member) {
			p.advance(1)
			continue
		}
		pu := c.Payment.Update().Where(payment.ID(pm.id))
		fill(pu.Mutation())
		if err := pu.Exec(ctx); err != nil {
			return fmt.Errorf("update payment %q: %w", in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.PaymentCreate) error {
		return c.Payment.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeAlerts(ctx context.Context, c *ent.Client) error {
	var creates []*ent.AlertCreate
	for _, a := range p.alerts {
		in := a.in
		fill := func(m *ent.AlertMutation) {
			m.SetImportRef(in.Ref)
			m.SetSeverity(alert.Severity(a.severity))
			m.SetTitle(in.Title)
			m.SetMessage(in.Message)
			m.SetResolved(in.Resolved)
			setTime(a.resolvedAt, m.SetResolvedAt, m.ClearResolvedAt)
		}
		if a.ex == nil {
			ac := c.Alert.Create().SetID(a.id)
			if a.createdAt != nil {
				ac.SetCreatedAt(*a.createdAt)
			}
			fill(ac.Mutation())
			creates = append(creates, ac)
			continue
		}
		au := c.Alert.Update().Where(alert.ID(a.id))
		fill(au.Mutation())
		if err := au.Exec(ctx); err != nil {
			return fmt.Errorf("update alert %q: %w", in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.AlertCreate) error {
		return c.Alert.CreateBulk(bs...).Exec(ctx)
	})
}
