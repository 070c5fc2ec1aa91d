// Package promos is a venue's promo codes: discounts of a percentage or a
// fixed amount that members enter at checkout and the front desk applies to
// a sale, and partner codes of campaigns (some granting a pass outright).
//
//   - Staff manage codes under /admin/promo-codes (marketing.campaigns).
//   - Apply prices a code against what is sold (a pass type, or product
//     lines) for the preview and, again, for the purchase or sale: the same
//     function, so a sale charges its preview.
//   - A use is claimed (Claim) in the transaction that creates what waits for
//     the money (a checkout, a desk card sale) or records a paid desk sale,
//     by a conditional update that never lets the claimed uses pass max_uses;
//     a member's own uses are counted under the code's row lock that update
//     holds. The use is counted once, at payment (Redeem, in the activation's
//     or settlement's transaction), and given back when the wait lapses
//     unpaid (Release).
//
// Decisions: docs/pos.md ("Promo codes and discounts").
package promos

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/ent/promocode"
	"github.com/venueplatform/venue/ent/promoredemption"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/viewer"
)

// PermCampaigns is the staff permission that manages promo and partner codes.
const PermCampaigns = "marketing.campaigns"

// CodeUnavailable is the error code of a promo code that cannot be used
// (the contract names none): 422 with details.reason.
const CodeUnavailable = "PROMO_CODE_UNAVAILABLE"

// The discount kinds.
const (
	KindPercent = "percent"
	KindFixed   = "fixed"
)

// MaxList is the most codes a list answers.
const MaxList = 500

var codeRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$`)

// Normalize is the stored form of a code: trimmed and upper-cased (codes
// are unique per venue whatever their case).
func Normalize(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// Service manages a venue's codes over one ent client.
type Service struct {
	client *ent.Client
	now    func() time.Time
}

// New returns a Service; now nil is time.Now.
func New(client *ent.Client, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{client: client, now: now}
}

// Staff is the signed-in staff member of the context holding
// marketing.campaigns: 403 ACCESS_DENIED otherwise.
func Staff(ctx context.Context) (viewer.User, error) {
	u, ok := viewer.UserFromContext(ctx)
	if ok && u.MemberID == uuid.Nil && u.HasPermission(PermCampaigns) {
		return u, nil
	}
	return viewer.User{}, apperr.AccessDenied("permission", "a required staff permission is missing").
		With("required_permissions", []string{PermCampaigns})
}

// Params are a new code.
type Params struct {
	Code             string
	Name             string
	DiscountKind     string
	PercentOff       *int
	AmountOffMinor   *int64
	Currency         *string
	StartsAt, EndsAt *time.Time
	MaxUses          *int
	MaxUsesPerMember *int
	PassTypeIDs      []uuid.UUID
	ProductIDs       []uuid.UUID
	Campaign         *string
	PartnerLabel     *string
	GrantsPassTypeID *uuid.UUID
}

func (p *Params) check() error {
	p.Code = Normalize(p.Code)
	switch {
	case !codeRE.MatchString(p.Code):
		return apperr.Validation("code", "3 to 40 letters, digits, '-' or '_', starting with a letter or digit")
	case p.DiscountKind == KindPercent && (p.PercentOff == nil || p.AmountOffMinor != nil):
		return apperr.Validation("percent_off", "a percent discount names percent_off (1 to 100) and no amount")
	case p.DiscountKind == KindFixed && (p.AmountOffMinor == nil || p.Currency == nil || p.PercentOff != nil):
		return apperr.Validation("amount_off_minor", "a fixed discount names amount_off_minor and currency, no percent")
	case p.DiscountKind != KindPercent && p.DiscountKind != KindFixed:
		return apperr.Validation("discount_kind", "percent or fixed")
	case p.Currency != nil && !money.ValidCurrency(strings.ToUpper(*p.Currency)):
		return apperr.Validation("currency", "not an ISO 4217 currency")
	case p.StartsAt != nil && p.EndsAt != nil && !p.EndsAt.After(*p.StartsAt):
		return apperr.Validation("ends_at", "after starts_at")
	case p.MaxUses != nil && p.MaxUsesPerMember != nil && *p.MaxUsesPerMember > *p.MaxUses:
		return apperr.Validation("max_uses_per_member", "at most max_uses")
	case p.GrantsPassTypeID != nil && p.Campaign == nil:
		return apperr.Validation("grants_pass_type_id", "a code that grants a pass is a partner code: name its campaign")
	}
	if p.Currency != nil {
		c := strings.ToUpper(*p.Currency)
		p.Currency = &c
	}
	return nil
}

// Create records a new code (marketing.campaigns). A code the venue has
// already, in any case, is 409 PROMO_CODE_EXISTS; unknown or another venue's
// pass types and products are 404.
func (s *Service) Create(ctx context.Context, p Params) (*ent.PromoCode, error) {
	u, err := Staff(ctx)
	if err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	if err := s.known(ctx, p.PassTypeIDs, p.ProductIDs, p.GrantsPassTypeID); err != nil {
		return nil, err
	}
	c := s.client.PromoCode.Create().SetCode(p.Code).SetName(strings.TrimSpace(p.Name)).
		SetDiscountKind(promocode.DiscountKind(p.DiscountKind)).SetNillablePercentOff(p.PercentOff).
		SetNillableAmountOffMinor(p.AmountOffMinor).SetNillableCurrency(p.Currency).
		SetNillableStartsAt(p.StartsAt).SetNillableEndsAt(p.EndsAt).SetNillableMaxUses(p.MaxUses).
		SetNillableMaxUsesPerMember(p.MaxUsesPerMember).SetPassTypeIds(dedupe(p.PassTypeIDs)).
		SetProductIds(dedupe(p.ProductIDs)).SetNillableCampaign(p.Campaign).SetNillablePartnerLabel(p.PartnerLabel).
		SetNillableGrantsPassTypeID(p.GrantsPassTypeID).SetCreatedByUserID(u.UserID)
	pc, err := c.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, (&apperr.Error{Status: http.StatusConflict, Code: "PROMO_CODE_EXISTS",
			Message: "the venue has this code already"}).With("code", p.Code)
	}
	if err != nil {
		return nil, fmt.Errorf("promos: create: %w", err)
	}
	if _, err := audit.Record(ctx, s.client, audit.Entry{Action: "promo_code.created", Target: "promo_code:" + pc.ID.String(),
		Outcome: "success", Details: map[string]any{"code": pc.Code}}); err != nil {
		return nil, err
	}
	return pc, nil
}

func dedupe(ids []uuid.UUID) []uuid.UUID {
	out := []uuid.UUID{}
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// known checks that every named pass type and product is the venue's.
func (s *Service) known(ctx context.Context, passTypes, products []uuid.UUID, grants *uuid.UUID) error {
	pts := dedupe(passTypes)
	if grants != nil && !slices.Contains(pts, *grants) {
		pts = append(pts, *grants)
	}
	if n, err := s.client.PassType.Query().Where(passtype.IDIn(pts...)).Count(ctx); err != nil {
		return err
	} else if n != len(pts) {
		return apperr.NotFound("pass type")
	}
	ps := dedupe(products)
	if n, err := s.client.Product.Query().Where(product.IDIn(ps...)).Count(ctx); err != nil {
		return err
	} else if n != len(ps) {
		return apperr.NotFound("product")
	}
	return nil
}

// List is the venue's codes, newest first, at most MaxList (marketing.campaigns).
func (s *Service) List(ctx context.Context) ([]*ent.PromoCode, error) {
	if _, err := Staff(ctx); err != nil {
		return nil, err
	}
	return s.client.PromoCode.Query().Order(ent.Desc(promocode.FieldCreatedAt), ent.Asc(promocode.FieldID)).
		Limit(MaxList).All(ctx)
}

// Get reads one code (marketing.campaigns); unknown or another venue's: 404.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.PromoCode, error) {
	if _, err := Staff(ctx); err != nil {
		return nil, err
	}
	pc, err := s.client.PromoCode.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("promo code")
	}
	return pc, err
}

// Patch changes a code's switch, window and limits; a field left nil is
// kept. Its discount and what it applies to are fixed once made (quotes and
// sales priced from it stay explainable): make a new code instead.
type Patch struct {
	Active           *bool
	Name             *string
	EndsAt           *time.Time
	ClearEndsAt      bool
	MaxUses          *int
	MaxUsesPerMember *int
}

// Update applies a patch (marketing.campaigns). max_uses below the uses
// already claimed is 400 VALIDATION_ERROR.
func (s *Service) Update(ctx context.Context, id uuid.UUID, p Patch) (*ent.PromoCode, error) {
	if _, err := Staff(ctx); err != nil {
		return nil, err
	}
	pc, err := s.client.PromoCode.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("promo code")
	} else if err != nil {
		return nil, err
	}
	upd := s.client.PromoCode.UpdateOne(pc)
	if p.Active != nil {
		upd.SetActive(*p.Active)
	}
	if p.Name != nil {
		upd.SetName(strings.TrimSpace(*p.Name))
	}
	if p.ClearEndsAt {
		upd.ClearEndsAt()
	} else if p.EndsAt != nil {
		if pc.StartsAt != nil && !p.EndsAt.After(*pc.StartsAt) {
			return nil, apperr.Validation("ends_at", "after starts_at")
		}
		upd.SetEndsAt(*p.EndsAt)
	}
	if p.MaxUses != nil {
		// Only while the claimed uses fit: a concurrent claim cannot slip
		// past the new limit (the same row is updated conditionally).
		upd.Where(promocode.ClaimedCountLTE(*p.MaxUses))
		upd.SetMaxUses(*p.MaxUses)
	}
	if p.MaxUsesPerMember != nil {
		upd.SetMaxUsesPerMember(*p.MaxUsesPerMember)
	}
	out, err := upd.Save(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Validation("max_uses", "below the uses already claimed")
	}
	if err != nil {
		return nil, err
	}
	if _, err := audit.Record(ctx, s.client, audit.Entry{Action: "promo_code.updated", Target: "promo_code:" + id.String(),
		Outcome: "success", Details: map[string]any{"code": out.Code, "active": out.Active}}); err != nil {
		return nil, err
	}
	return out, nil
}

// Unavailable is the refusal of a code that cannot be used, with why:
// not_found, inactive, not_started, expired, exhausted, member_limit,
// member_required, not_applicable, currency_mismatch, grants_pass.
func Unavailable(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeUnavailable,
		Message: "the promo code cannot be used"}).With("reason", reason).With("next_step", nil)
}

// Line is one priced line of what a code is applied to.
type Line struct {
	ProductID  uuid.UUID
	TotalMinor int64
}

// Target is what a code is applied to: a pass type at PriceMinor, or
// product lines, in Currency, for MemberID (nil: nobody named).
type Target struct {
	PassTypeID uuid.UUID
	PriceMinor int64
	Lines      []Line
	Currency   string
	MemberID   uuid.UUID
	Now        time.Time
	// AllowExpired honours a code whose window has closed (the desk's
	// late_code_redemption exception); a code still running is then 400.
	AllowExpired bool
}

// Applied is a code priced against a target.
type Applied struct {
	Code          *ent.PromoCode
	DiscountMinor int64
	Late          bool
}

// Apply prices the code (any case) against t; 422 PROMO_CODE_UNAVAILABLE
// with details.reason when it cannot be used.
func Apply(ctx context.Context, client *ent.Client, code string, t Target) (*Applied, error) {
	pc, err := client.PromoCode.Query().Where(promocode.Code(Normalize(code))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, Unavailable("not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("promos: code: %w", err)
	}
	return apply(ctx, client, pc, t)
}

// ApplyID prices the code id (a quote's) against t.
func ApplyID(ctx context.Context, client *ent.Client, id uuid.UUID, t Target) (*Applied, error) {
	pc, err := client.PromoCode.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, Unavailable("not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("promos: code: %w", err)
	}
	return apply(ctx, client, pc, t)
}

// Expired says whether the code's window has closed at now.
func Expired(pc *ent.PromoCode, now time.Time) bool {
	return pc.EndsAt != nil && !now.Before(*pc.EndsAt)
}

func apply(ctx context.Context, client *ent.Client, pc *ent.PromoCode, t Target) (*Applied, error) {
	now := t.Now
	if now.IsZero() {
		now = time.Now()
	}
	switch {
	case !pc.Active:
		return nil, Unavailable("inactive")
	case pc.GrantsPassTypeID != nil:
		return nil, Unavailable("grants_pass")
	case pc.StartsAt != nil && now.Before(*pc.StartsAt):
		return nil, Unavailable("not_started")
	case Expired(pc, now) && !t.AllowExpired:
		return nil, Unavailable("expired")
	case !Expired(pc, now) && t.AllowExpired:
		return nil, apperr.Validation("promo_window_exception", "the code has not expired: use it without an exception")
	case pc.MaxUses != nil && pc.ClaimedCount >= *pc.MaxUses:
		return nil, Unavailable("exhausted")
	case pc.DiscountKind == promocode.DiscountKindFixed && (pc.Currency == nil || !strings.EqualFold(*pc.Currency, t.Currency)):
		return nil, Unavailable("currency_mismatch")
	}
	var base int64
	if t.PassTypeID != uuid.Nil {
		if len(pc.PassTypeIds) > 0 && !slices.Contains(pc.PassTypeIds, t.PassTypeID) || len(pc.PassTypeIds) == 0 && len(pc.ProductIds) > 0 {
			return nil, Unavailable("not_applicable")
		}
		base = t.PriceMinor
	} else {
		if len(pc.PassTypeIds) > 0 && len(pc.ProductIds) == 0 {
			return nil, Unavailable("not_applicable")
		}
		n := 0
		for _, l := range t.Lines {
			if len(pc.ProductIds) == 0 || slices.Contains(pc.ProductIds, l.ProductID) {
				base += l.TotalMinor
				n++
			}
		}
		if n == 0 {
			return nil, Unavailable("not_applicable")
		}
	}
	if pc.MaxUsesPerMember != nil {
		if t.MemberID == uuid.Nil {
			return nil, Unavailable("member_required")
		}
		used, err := memberUses(ctx, client, pc.ID, t.MemberID)
		if err != nil {
			return nil, err
		}
		if used >= *pc.MaxUsesPerMember {
			return nil, Unavailable("member_limit")
		}
	}
	return &Applied{Code: pc, DiscountMinor: Discount(pc, base), Late: t.AllowExpired}, nil
}

// Discount is what pc takes off base (minor units): a percentage rounded
// half up, or the fixed amount, never more than base.
func Discount(pc *ent.PromoCode, base int64) int64 {
	var d int64
	switch {
	case pc.PercentOff != nil:
		d = (base*int64(*pc.PercentOff) + 50) / 100
	case pc.AmountOffMinor != nil:
		d = *pc.AmountOffMinor
	}
	return min(max(d, 0), max(base, 0))
}

func memberUses(ctx context.Context, client *ent.Client, codeID, memberID uuid.UUID) (int, error) {
	return client.PromoRedemption.Query().Where(promoredemption.PromoCodeID(codeID), promoredemption.MemberID(memberID),
		promoredemption.StatusIn(promoredemption.StatusHeld, promoredemption.StatusRedeemed)).Count(ctx)
}

// Claim takes one use of a's code for subject (a checkout, a desk sale) in
// tx: held while the subject waits for its money, or redeemed at once when
// paid is true (a desk sale paid in the same transaction). The use is taken
// by one conditional update of the code's row (claimed_count below
// max_uses), which also holds the row's lock to the end of tx, so the
// member's uses counted next cannot change meanwhile: concurrent claims
// never take more than max_uses, or max_uses_per_member for one member.
// lateReason is the clerk's reason of a late redemption.
func Claim(ctx context.Context, tx *ent.Tx, a *Applied, memberID, subject uuid.UUID, currency string, paid bool, lateReason string, now time.Time) error {
	pc := a.Code
	upd := tx.PromoCode.Update().Where(promocode.ID(pc.ID), promocode.Active(true),
		promocode.Or(promocode.MaxUsesIsNil(), func(s *sql.Selector) {
			s.Where(sql.ColumnsLT(s.C(promocode.FieldClaimedCount), s.C(promocode.FieldMaxUses)))
		})).AddClaimedCount(1)
	if paid {
		upd.AddRedeemedCount(1)
	}
	n, err := upd.Save(ctx)
	if err != nil {
		return fmt.Errorf("promos: claim: %w", err)
	}
	if n == 0 {
		return Unavailable("exhausted")
	}
	if pc.MaxUsesPerMember != nil {
		if memberID == uuid.Nil {
			return Unavailable("member_required")
		}
		used, err := memberUses(ctx, tx.Client(), pc.ID, memberID)
		if err != nil {
			return err
		}
		if used >= *pc.MaxUsesPerMember {
			return Unavailable("member_limit")
		}
	}
	c := tx.PromoRedemption.Create().SetPromoCodeID(pc.ID).SetSubjectID(subject).SetDiscountMinor(a.DiscountMinor).
		SetCurrency(strings.ToUpper(currency)).SetStatus(promoredemption.StatusHeld)
	if memberID != uuid.Nil {
		c.SetMemberID(memberID)
	}
	if paid {
		c.SetStatus(promoredemption.StatusRedeemed).SetRedeemedAt(now)
	}
	if lateReason != "" {
		c.SetLateReason(lateReason)
	}
	return c.Exec(ctx)
}

// Redeem counts the use subject holds, once, at payment, in the payment's
// transaction. A use released meanwhile (the wait lapsed, then the money
// arrived) is taken again: the money wins, even past max_uses, for staff to
// see. Nothing happens for a subject without a code or counted already.
func Redeem(ctx context.Context, tx *ent.Tx, subject uuid.UUID, now time.Time) error {
	r, err := tx.PromoRedemption.Query().Where(promoredemption.SubjectID(subject)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("promos: redemption: %w", err)
	}
	switch r.Status {
	case promoredemption.StatusRedeemed:
		return nil
	case promoredemption.StatusReleased:
		if err := tx.PromoCode.UpdateOneID(r.PromoCodeID).AddClaimedCount(1).Exec(ctx); err != nil {
			return err
		}
	}
	if err := tx.PromoRedemption.UpdateOne(r).SetStatus(promoredemption.StatusRedeemed).SetRedeemedAt(now).Exec(ctx); err != nil {
		return err
	}
	return tx.PromoCode.UpdateOneID(r.PromoCodeID).AddRedeemedCount(1).Exec(ctx)
}

// Release gives back the use a lapsed subject held, once.
func Release(ctx context.Context, tx *ent.Tx, subject uuid.UUID) error {
	r, err := tx.PromoRedemption.Query().Where(promoredemption.SubjectID(subject)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("promos: redemption: %w", err)
	}
	if r.Status != promoredemption.StatusHeld {
		return nil
	}
	if err := tx.PromoRedemption.UpdateOne(r).SetStatus(promoredemption.StatusReleased).Exec(ctx); err != nil {
		return err
	}
	return tx.PromoCode.Update().Where(promocode.ID(r.PromoCodeID), promocode.ClaimedCountGT(0)).AddClaimedCount(-1).Exec(ctx)
}
