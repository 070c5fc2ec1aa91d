package importer

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/model"
)

func (p *plan) checkMembers() {
	emails := map[string]string{}
	displayIDs := map[string]string{}
	for i, in := range p.doc.Members {
		it, _, ok := p.begin(SecMembers, i, in.Ref)
		if !ok {
			continue
		}
		mp := &memberPlan{it: it, in: in, ex: p.db.members[in.Ref]}
		email, err := members.NormalizeEmail(in.Email)
		if err != nil {
			p.ps.add(it, "email", "%v", err)
		} else if other, dup := emails[email]; dup {
			p.ps.add(it, "email", "email %q is also member %q", email, other)
		} else {
			emails[email] = in.Ref
			mp.email = email
		}
		if len(in.FirstName) > 100 {
			p.ps.add(it, "first_name", "longer than 100 characters")
		}
		if len(in.LastName) > 100 {
			p.ps.add(it, "last_name", "longer than 100 characters")
		}
		if in.ClientDisplayID != "" {
			if len(in.ClientDisplayID) > 64 {
				p.ps.add(it, "client_display_id", "longer than 64 characters")
			} else if other, dup := displayIDs[in.ClientDisplayID]; dup {
				p.ps.add(it, "client_display_id", "client display id %q is also member %q", in.ClientDisplayID, other)
			} else {
				displayIDs[in.ClientDisplayID] = in.Ref
			}
		}
		if t := p.timestamp(it, "joined_at", in.JoinedAt, false); t != nil {
			mp.joinedAt = *t
		}
		p.enum(it, "status", in.Status, "active", memberStatuses)
		p.members = append(p.members, mp)
	}
}

func (p *plan) checkPasses() {
	for _, ps := range p.db.passes {
		p.passMember[ps.ID] = ps.MemberID.String()
	}
	for i, in := range p.doc.Passes {
		it, id, ok := p.begin(SecPasses, i, in.Ref)
		if !ok {
			continue
		}
		pp := &passPlan{it: it, in: in, id: id, ex: p.db.passes[in.Ref]}
		if _, ok := p.resolve(it, "member", SecMembers, in.Member, true); ok {
			p.passMember[id] = p.memberIdentity(in.Member)
			p.passMemberRef[id] = in.Member
		}
		if ptID, ok := p.resolve(it, "pass_type", SecPassTypes, in.PassType, true); ok {
			pp.passType = ptID
			if cur := p.passTypeCurrency[ptID]; in.Currency != "" && in.Currency != cur {
				p.ps.add(it, "currency", "currency %q differs from the currency %s of pass type %q", in.Currency, cur, in.PassType)
			}
		}
		pp.status = p.enum(it, "status", in.Status, "active", passStatuses)
		if from := p.date(it, "valid_from", in.ValidFrom, true); from != nil {
			pp.validFrom = *from
			pp.validTo = p.date(it, "valid_to", in.ValidTo, false)
			if pp.validTo != nil && pp.validTo.Before(*from) {
				p.ps.add(it, "valid_to", "is before valid_from")
			}
		}
		if in.ClipsRemaining != nil && *in.ClipsRemaining < 0 {
			p.ps.add(it, "clips_remaining", "must not be negative")
		}
		p.passes = append(p.passes, pp)
	}
}

func (p *plan) checkBookings() {
	held := map[string]string{} // member identity + class id -> booking ref
	for i, in := range p.doc.Bookings {
		it, id, ok := p.begin(SecBookings, i, in.Ref)
		if !ok {
			continue
		}
		bp := &bookingPlan{it: it, in: in, id: id, ex: p.db.bookings[in.Ref]}
		memberOK := false
		if _, ok := p.resolve(it, "member", SecMembers, in.Member, true); ok {
			memberOK = true
		}
		classID, classOK := p.resolve(it, "class", SecClasses, in.Class, true)
		bp.class = classID
		if passID, ok := p.resolve(it, "pass", SecPasses, in.Pass, false); ok {
			bp.pass = &passID
			if memberOK && p.passMember[passID] != p.memberIdentity(in.Member) {
				p.ps.add(it, "pass", "pass %q belongs to another member than %q", in.Pass, in.Member)
			}
		}
		bp.status = p.enum(it, "status", in.Status, "confirmed", bookingStatuses)
		bp.createdAt = p.timestamp(it, "created_at", in.CreatedAt, false)
		bp.cancelledAt = p.timestamp(it, "cancelled_at", in.CancelledAt, false)
		bp.checkedInAt = p.timestamp(it, "checked_in_at", in.CheckedInAt, false)
		if memberOK && classOK && !freesSeat(bp.status) && bp.status != "waitlisted" {
			key := p.memberIdentity(in.Member) + "/" + classID.String()
			if other, dup := held[key]; dup {
				p.ps.add(it, "member", "member %q already holds a place in class %q (booking %q)", in.Member, in.Class, other)
			}
			held[key] = in.Ref
		}
		p.bookings = append(p.bookings, bp)
	}
}

func (p *plan) checkPayments() {
	for i, in := range p.doc.Payments {
		it, id, ok := p.begin(SecPayments, i, in.Ref)
		if !ok {
			continue
		}
		pp := &paymentPlan{it: it, in: in, id: id, ex: p.db.payments[in.Ref], memberRef: in.Member}
		memberOK := false
		if in.Member != "" {
			_, memberOK = p.resolve(it, "member", SecMembers, in.Member, true)
		}
		if passID, ok := p.resolve(it, "pass", SecPasses, in.Pass, false); ok {
			pp.pass = &passID
			switch {
			case memberOK && p.passMember[passID] != p.memberIdentity(in.Member):
				p.ps.add(it, "pass", "pass %q belongs to another member than %q", in.Pass, in.Member)
			case in.Member == "" && p.passMemberRef[passID] != "":
				pp.memberRef = p.passMemberRef[passID]
			case in.Member == "":
				if m, err := uuid.Parse(p.passMember[passID]); err == nil {
					pp.member = &m
				}
			}
		}
		switch {
		case in.AmountMinor == nil:
			p.ps.add(it, "amount_minor", "missing; want the amount in minor units")
		case *in.AmountMinor < 0:
			p.ps.add(it, "amount_minor", "must not be negative; record refunds with status refunded")
		}
		p.isoCurrency(it, "currency", in.Currency)
		pp.status = p.enum(it, "status", in.Status, "pending", paymentStatuses)
		pp.kind = p.enum(it, "kind", in.Kind, "other", paymentKinds)
		pp.paidAt = p.timestamp(it, "paid_at", in.PaidAt, false)
		p.payments = append(p.payments, pp)
	}
}

func (p *plan) checkAlerts() {
	for i, in := range p.doc.Alerts {
		it, id, ok := p.begin(SecAlerts, i, in.Ref)
		if !ok {
			continue
		}
		ap := &alertPlan{it: it, in: in, id: id, ex: p.db.alerts[in.Ref]}
		p.required(it, "title", in.Title, 200)
		ap.severity = p.enum(it, "severity", in.Severity, "info", severities)
		ap.createdAt = p.timestamp(it, "created_at", in.CreatedAt, false)
		ap.resolvedAt = p.timestamp(it, "resolved_at", in.ResolvedAt, false)
		if ap.resolvedAt != nil && !in.Resolved {
			p.ps.add(it, "resolved_at", "only a resolved alert has a resolution time")
		}
		p.alerts = append(p.alerts, ap)
	}
}

// freesSeat reports whether a booking status gives its seat back: such
// bookings, and waitlisted ones, do not count against a class's capacity.
func freesSeat(status string) bool {
	return status == "cancelled" || status == "late-cancelled"
}

// checkFlexible lists what is wrong with a flexible pricing configuration.
func checkFlexible(c *model.FlexiblePricingConfig) []string {
	var out []string
	if c.SchemaVersion < 1 {
		out = append(out, "schema_version must be 1 or more")
	}
	if c.MinimumQuantity < 1 {
		out = append(out, "minimum_quantity must be 1 or more")
	}
	if c.MaximumQuantity < c.MinimumQuantity {
		out = append(out, "maximum_quantity must not be below minimum_quantity")
	}
	if c.QuantityStep < 1 {
		out = append(out, "quantity_step must be 1 or more")
	}
	if len(c.Tiers) == 0 {
		out = append(out, "tiers must not be empty")
	}
	last := 0
	for i, t := range c.Tiers {
		if t.UpTo <= last {
			out = append(out, fmt.Sprintf("tiers[%d].up_to must be above the previous tier's", i))
		}
		if t.PricePerClass < 0 {
			out = append(out, fmt.Sprintf("tiers[%d].price_per_class must not be negative", i))
		}
		last = t.UpTo
	}
	if c.Unlimited.Enabled && c.Unlimited.Price < 0 {
		out = append(out, "unlimited.price must not be negative")
	}
	for _, o := range c.ChangePolicy.AllowedCycleOffsets {
		if o < 0 {
			out = append(out, "change_policy.allowed_cycle_offsets must not be negative")
			break
		}
	}
	return out
}
