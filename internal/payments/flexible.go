package payments

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/money"
)

// Selection is a flexible-quantity membership's choice: Quantity classes a
// period, or Unlimited.
type Selection struct {
	Unlimited bool
	Quantity  int
}

// Kind is the selection's kind as the API names it.
func (s Selection) Kind() string {
	if s.Unlimited {
		return "unlimited"
	}
	return "quantity"
}

// AllowanceLabel is the selection in words ("8 classes", "Unlimited").
func (s Selection) AllowanceLabel() string {
	if s.Unlimited {
		return "Unlimited"
	}
	if s.Quantity == 1 {
		return "1 class"
	}
	return strconv.Itoa(s.Quantity) + " classes"
}

// FlexiblePrice is the period price of sel under cfg in currency: a
// quantity is priced whole at the rate of the first tier it fits in (volume
// tiers: 8 classes in a tier up to 8 at 100.00 cost 800.00), unlimited at
// its own price. ok is false for a selection the configuration does not
// sell: outside the bounds, off the step, above every tier, or unlimited
// when it is not enabled.
func FlexiblePrice(cfg *model.FlexiblePricingConfig, sel Selection, currency string) (int64, bool) {
	if cfg == nil {
		return 0, false
	}
	if sel.Unlimited {
		if !cfg.Unlimited.Enabled || cfg.Unlimited.Price < 0 {
			return 0, false
		}
		return money.ToMinor(cfg.Unlimited.Price, currency), true
	}
	step := max(cfg.QuantityStep, 1)
	q := sel.Quantity
	if q < cfg.MinimumQuantity || q > cfg.MaximumQuantity || q < 1 || (q-cfg.MinimumQuantity)%step != 0 {
		return 0, false
	}
	tiers := slices.Clone(cfg.Tiers)
	slices.SortFunc(tiers, func(a, b model.PriceTier) int { return a.UpTo - b.UpTo })
	for _, t := range tiers {
		if q <= t.UpTo && t.PricePerClass >= 0 {
			return int64(q) * money.ToMinor(t.PricePerClass, currency), true
		}
	}
	return 0, false
}

// FlexibleOption is one selection a member may choose, with its price.
type FlexibleOption struct {
	Selection  Selection
	PriceMinor int64
}

// FlexibleOptions lists every selection cfg sells, quantities ascending,
// unlimited last.
func FlexibleOptions(cfg *model.FlexiblePricingConfig, currency string) []FlexibleOption {
	var out []FlexibleOption
	if cfg == nil {
		return nil
	}
	for q := max(cfg.MinimumQuantity, 1); q <= cfg.MaximumQuantity && len(out) < 200; q += max(cfg.QuantityStep, 1) {
		if p, ok := FlexiblePrice(cfg, Selection{Quantity: q}, currency); ok {
			out = append(out, FlexibleOption{Selection: Selection{Quantity: q}, PriceMinor: p})
		}
	}
	if p, ok := FlexiblePrice(cfg, Selection{Unlimited: true}, currency); ok {
		out = append(out, FlexibleOption{Selection: Selection{Unlimited: true}, PriceMinor: p})
	}
	return out
}

// FlexibleChoices is what a member's flexible membership offers them now.
type FlexibleChoices struct {
	Pass      *ent.Pass
	PassType  *ent.PassType
	Current   Selection
	Price     int64
	Currency  string
	Options   []FlexibleOption
	Policy    model.ChangePolicy
	Renewals  []Renewal
	Scheduled *model.FlexibleChange
}

// Renewal is the n-th upcoming renewal of a membership and its date.
type Renewal struct {
	N    int
	Date time.Time
}

// MaxRenewal is the furthest renewal a change may be scheduled for.
const MaxRenewal = 24

// flexiblePass reads the member's own flexible membership id (the wall
// keeps other members' passes out: they are 404 like unknown ones).
func (s *Service) flexiblePass(ctx context.Context, id uuid.UUID) (*ent.Pass, *ent.PassType, error) {
	p, err := s.client.Pass.Query().Where(pass.ID(id)).WithPassType().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.NotFound("pass")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("payments: pass: %w", err)
	}
	pt := p.Edges.PassType
	if pt == nil || pt.PricingMode != passtype.PricingModeFlexibleQuantity || !pt.IsRecurring {
		return nil, nil, apperr.NotFound("flexible membership")
	}
	return p, pt, nil
}

// currentSelection is the pass's selection; a pass bought before selections
// were recorded has the configuration's minimum.
func currentSelection(p *ent.Pass, cfg *model.FlexiblePricingConfig) Selection {
	if p.FlexibleKind != nil && *p.FlexibleKind == pass.FlexibleKindUnlimited {
		return Selection{Unlimited: true}
	}
	if p.FlexibleQuantity != nil {
		return Selection{Quantity: *p.FlexibleQuantity}
	}
	if cfg != nil {
		return Selection{Quantity: cfg.MinimumQuantity}
	}
	return Selection{}
}

// renewals are the pass's next n renewal dates: the first is the day its
// paid period ends (valid_to), each next one billing period later.
func renewals(p *ent.Pass, pt *ent.PassType, n int) []Renewal {
	if p.ValidTo == nil {
		return nil
	}
	out := make([]Renewal, 0, n)
	d := *p.ValidTo
	for i := 1; i <= n; i++ {
		out = append(out, Renewal{N: i, Date: d})
		next, ok := firstPeriodEnd(pt, d)
		if !ok || !next.After(d) {
			break
		}
		d = next
	}
	return out
}

// FlexibleChoicesOf is the member's flexible membership id: its current
// selection and price, every selection it sells, the change policy, the
// renewals a change may start at and the change already scheduled.
func (s *Service) FlexibleChoicesOf(ctx context.Context, id uuid.UUID) (*FlexibleChoices, error) {
	p, pt, err := s.flexiblePass(ctx, id)
	if err != nil {
		return nil, err
	}
	cfg := pt.FlexiblePricingConfig
	cur := currentSelection(p, cfg)
	price, _ := FlexiblePrice(cfg, cur, pt.Currency)
	out := &FlexibleChoices{Pass: p, PassType: pt, Current: cur, Price: price, Currency: pt.Currency,
		Options: FlexibleOptions(cfg, pt.Currency), Scheduled: p.FlexibleChange}
	if cfg != nil {
		out.Policy = cfg.ChangePolicy
	}
	for _, r := range renewals(p, pt, MaxRenewal) {
		if renewalAllowed(out.Policy, r.N) {
			out.Renewals = append(out.Renewals, r)
		}
	}
	return out, nil
}

// renewalAllowed says whether a change may start at renewal n: any renewal
// 1 to 24 when the policy lists no offsets, else only those it lists.
func renewalAllowed(pol model.ChangePolicy, n int) bool {
	if n < 1 || n > MaxRenewal {
		return false
	}
	return len(pol.AllowedCycleOffsets) == 0 || slices.Contains(pol.AllowedCycleOffsets, n)
}

// FlexibleChange is a previewed or scheduled change of selection.
type FlexibleChange struct {
	Pass         *ent.Pass
	From, To     Selection
	FromPrice    int64
	ToPrice      int64
	Currency     string
	Renewal      int
	EffectiveOn  time.Time
	ScheduledAt  *time.Time
	Replaced     *model.FlexibleChange
	PolicyOffset int
}

// PreviewFlexibleChange prices changing the member's flexible membership id
// to sel from renewal n (0: the policy's default): nothing is written.
// Refusals are 422 VALIDATION_FAILED with details.reason:
// member_changes_disabled, selection_unavailable, renewal_not_allowed or
// pass_not_active.
func (s *Service) PreviewFlexibleChange(ctx context.Context, id uuid.UUID, sel Selection, n int) (*FlexibleChange, error) {
	p, pt, err := s.flexiblePass(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.flexibleChange(p, pt, sel, n)
}

func (s *Service) flexibleChange(p *ent.Pass, pt *ent.PassType, sel Selection, n int) (*FlexibleChange, error) {
	cfg := pt.FlexiblePricingConfig
	if cfg == nil || !cfg.ChangePolicy.MemberChangesEnabled {
		return nil, flexRefused("member_changes_disabled", "the venue does not let members change this membership")
	}
	if p.Status != pass.StatusActive {
		return nil, flexRefused("pass_not_active", "only an active membership can be changed")
	}
	if n == 0 {
		n = max(cfg.ChangePolicy.DefaultCycleOffset, 1)
	}
	if !renewalAllowed(cfg.ChangePolicy, n) {
		return nil, flexRefused("renewal_not_allowed", "a change cannot start at that renewal").With("renewal", n)
	}
	to, ok := FlexiblePrice(cfg, sel, pt.Currency)
	if !ok {
		return nil, flexRefused("selection_unavailable", "the membership does not sell that selection")
	}
	rs := renewals(p, pt, n)
	if len(rs) < n {
		return nil, flexRefused("renewal_not_allowed", "the membership has no such renewal").With("renewal", n)
	}
	cur := currentSelection(p, cfg)
	from, _ := FlexiblePrice(cfg, cur, pt.Currency)
	return &FlexibleChange{Pass: p, From: cur, To: sel, FromPrice: from, ToPrice: to, Currency: pt.Currency,
		Renewal: n, EffectiveOn: rs[n-1].Date, Replaced: p.FlexibleChange}, nil
}

// ScheduleFlexibleChange records the change PreviewFlexibleChange would
// price on the member's pass, replacing any change scheduled before (one
// scheduled change per membership). The renewal that reaches it charges the
// new price.
func (s *Service) ScheduleFlexibleChange(ctx context.Context, id uuid.UUID, sel Selection, n int) (*FlexibleChange, error) {
	var out *FlexibleChange
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		p, err := tx.Pass.Query().Where(pass.ID(id)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("pass")
		}
		if err != nil {
			return err
		}
		pt, err := tx.PassType.Get(ctx, p.PassTypeID)
		if err != nil {
			return err
		}
		if pt.PricingMode != passtype.PricingModeFlexibleQuantity || !pt.IsRecurring {
			return apperr.NotFound("flexible membership")
		}
		if out, err = s.flexibleChange(p, pt, sel, n); err != nil {
			return err
		}
		now := s.now().UTC().Truncate(time.Second)
		out.ScheduledAt = &now
		ch := &model.FlexibleChange{Kind: sel.Kind(), Renewal: out.Renewal, EffectiveOn: out.EffectiveOn.Format(time.DateOnly),
			PriceMinor: out.ToPrice, Currency: out.Currency, ScheduledAt: now.Format(time.RFC3339)}
		if !sel.Unlimited {
			ch.Quantity = sel.Quantity
		}
		if out.Pass, err = tx.Pass.UpdateOne(p).SetFlexibleChange(ch).Save(ctx); err != nil {
			return err
		}
		return RunFlexibleChangeHooks(ctx, tx, out.Pass) // the renewals price it (flexquote.go)
	})
	return out, err
}

func flexRefused(reason, msg string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: "VALIDATION_FAILED", Message: msg}).
		With("reason", reason).With("next_step", nil)
}
