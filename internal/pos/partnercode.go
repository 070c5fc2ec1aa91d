package pos

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/promocode"
	"github.com/venueplatform/venue/ent/promoredemption"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/promos"
)

// Expired partner codes at the desk: a member arrives with a partner's code
// (a code of a campaign) after its window closed, and the clerk honours it
// with a reason. A code that grants a pass grants it here and now; a
// discount code answers which pass types a sale with the exception
// late_code_redemption may sell at its discount.

// The outcomes of a partner code redemption.
const (
	PartnerGranted      = "granted"
	PartnerSaleRequired = "sale_required"
)

// Error codes of partner code redemption (contract).
const (
	CodeLateDiscountUnsupported = "LATE_DISCOUNT_CODE_UNSUPPORTED"
	CodeLateNotCampaign         = "LATE_CODE_NOT_CAMPAIGN"
)

// PartnerRedemption is what the desk did with an expired partner code.
type PartnerRedemption struct {
	Outcome     string
	CodeLabel   string
	PassID      *uuid.UUID
	PassTypeIDs []uuid.UUID
}

// RedeemPartnerCode honours an expired partner code for a member, once per
// member and code (pos.access or pos.sell, and marketing.campaigns). The
// reason (5 to 500 characters after trimming) is audited
// (pos.partner_code_redeemed). A code that grants a pass creates it (active
// from the venue's today) with the code's use counted; a discount code that
// applies to pass types answers them for the sale (sale_required; nothing is
// used until the sale); one that applies to products only is 422
// LATE_DISCOUNT_CODE_UNSUPPORTED; a code of no campaign 422
// LATE_CODE_NOT_CAMPAIGN; a code still running 400; a member who used the
// code already 409 ALREADY_CLAIMED; an unknown member or code 404.
func (s *Service) RedeemPartnerCode(ctx context.Context, memberID uuid.UUID, code, reason string) (*PartnerRedemption, error) {
	if _, err := Staff(ctx, false, PermAccess, PermSell); err != nil {
		return nil, err
	}
	if _, err := Staff(ctx, true, promos.PermCampaigns); err != nil {
		return nil, err
	}
	reason = strings.TrimSpace(reason)
	if n := len([]rune(reason)); n < MinReason || n > MaxReason {
		return nil, apperr.Validation("reason", fmt.Sprintf("%d to %d characters", MinReason, MaxReason))
	}
	now := s.now()
	var out *PartnerRedemption
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if n, err := tx.Member.Query().Where(member.ID(memberID)).Count(ctx); err != nil {
			return err
		} else if n == 0 {
			return apperr.NotFound("member")
		}
		// The code's row lock serializes redemptions of the code: the
		// member's earlier use is seen by the second of two at once.
		pc, err := tx.PromoCode.Query().Where(promocode.Code(promos.Normalize(code))).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("promo code")
		} else if err != nil {
			return err
		}
		label := pc.Code
		switch {
		case pc.PartnerLabel != nil:
			label = *pc.PartnerLabel
		case pc.Campaign != nil:
			label = *pc.Campaign
		}
		switch {
		case pc.Campaign == nil:
			return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeLateNotCampaign,
				Message: "the code is not a partner campaign's"}).With("next_step", nil)
		case !promos.Expired(pc, now):
			return apperr.Validation("code", "the code has not expired: use it as it is").With("reason", "not_expired")
		case !pc.Active:
			return promos.Unavailable("inactive")
		}
		used, err := tx.PromoRedemption.Query().Where(promoredemption.PromoCodeID(pc.ID), promoredemption.MemberID(memberID),
			promoredemption.StatusIn(promoredemption.StatusHeld, promoredemption.StatusRedeemed)).Exist(ctx)
		if err != nil {
			return err
		}
		if used {
			return (&apperr.Error{Status: http.StatusConflict, Code: "ALREADY_CLAIMED",
				Message: "the member has used this code already"}).With("next_step", nil)
		}
		out = &PartnerRedemption{CodeLabel: label, PassTypeIDs: []uuid.UUID{}}
		details := map[string]any{"code": pc.Code, "code_label": label, "member_id": memberID.String(), "reason": reason}
		if pc.GrantsPassTypeID != nil {
			pt, err := tx.PassType.Query().Where(passtype.ID(*pc.GrantsPassTypeID), passtype.Active(true)).Only(ctx)
			if ent.IsNotFound(err) {
				return promos.Unavailable("pass_type_unavailable")
			} else if err != nil {
				return err
			}
			// The grant is an activation like every other: a checkout of
			// nothing (the partner paid) activated by the payments
			// activation, which writes the pass, marks the code's use
			// redeemed and records pass.activated in the outbox. It takes no
			// money, so it writes no payment row (as a free start).
			rate, err := vatRate(ctx, tx.Client())
			if err != nil {
				return err
			}
			co, err := tx.Checkout.Create().SetMemberID(memberID).SetPassTypeID(pt.ID).SetAmountMinor(0).
				SetCurrency(strings.ToUpper(pt.Currency)).SetVatMinor(0).SetVatRateBp(rate).
				SetQuoteFingerprint("partner:" + pc.ID.String()).SetQuoteIssuedAt(now).Save(ctx)
			if err != nil {
				return err
			}
			a := &promos.Applied{Code: pc, Late: true}
			if err := promos.Claim(ctx, tx, a, memberID, co.ID, pt.Currency, false, reason, now); err != nil {
				return err
			}
			if co, err = payments.ActivateAtDesk(ctx, tx, co, "", payment.MethodOther, now); err != nil {
				return err
			}
			out.Outcome, out.PassID, out.PassTypeIDs = PartnerGranted, co.PassID, []uuid.UUID{pt.ID}
			details["pass_id"] = co.PassID.String()
			details["checkout_id"] = co.ID.String()
		} else {
			if len(pc.PassTypeIds) == 0 && len(pc.ProductIds) > 0 {
				return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeLateDiscountUnsupported,
					Message: "the code discounts products only: sell them with the exception late_code_redemption"}).
					With("next_step", nil)
			}
			ids := pc.PassTypeIds
			q := tx.PassType.Query().Where(passtype.Active(true)).Order(ent.Asc(passtype.FieldName), ent.Asc(passtype.FieldID)).Limit(500)
			if len(ids) > 0 {
				q.Where(passtype.IDIn(ids...))
			}
			if out.PassTypeIDs, err = q.IDs(ctx); err != nil {
				return err
			}
			if len(out.PassTypeIDs) == 0 {
				return promos.Unavailable("not_applicable")
			}
			out.Outcome = PartnerSaleRequired
		}
		details["outcome"] = out.Outcome
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "pos.partner_code_redeemed", Target: "promo_code:" + pc.ID.String(),
			Outcome: "success", Details: details})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
