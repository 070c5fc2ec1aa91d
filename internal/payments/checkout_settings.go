// The staff side of checkout settings: the staff writes the buying flows read: the
// documents a purchase needs signed (waiver, terms, privacy notice,
// contract; a new version makes earlier signatures stale), the binding-month
// tiers of a recurring pass type, and a member's date of birth (read by the
// VAT age exemption and by the minor rule of signing).
//
// Every operation needs a staff session holding settings.membership or
// passes.manage in the venue (403 ACCESS_DENIED otherwise); another venue's
// or an unknown id is 404 NOT_FOUND; every write leaves an audit entry in
// the same transaction as the change.

package payments

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkoutdocument"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/viewer"
)

// The permissions that allow these writes (either one).
const (
	PermCheckoutMembership = "settings.membership"
	PermCheckoutPasses     = "passes.manage"
)

// Limits of the values staff set.
const (
	MaxBindingTiers          = 12
	MaxBindingTierMonths     = 60
	MaxBindingTierPriceMinor = 100_000_000_00
	MaxDocumentPassTypeRefs  = 100
)

// AuthorizeCheckoutSettings refuses a caller that is not a staff session with
// settings.membership or passes.manage in its venue.
func AuthorizeCheckoutSettings(ctx context.Context) error {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.User:
		if v.Org != uuid.Nil && v.MemberID == uuid.Nil && (v.HasPermission(PermCheckoutMembership) || v.HasPermission(PermCheckoutPasses)) {
			return nil
		}
		return apperr.AccessDenied("permission", "a required staff permission is missing").
			With("required_permissions", []string{PermCheckoutMembership, PermCheckoutPasses})
	case viewer.APIKey:
		return apperr.JWTOnly()
	default:
		return apperr.Unauthorized("staff credentials are required")
	}
}

// CheckoutSettings is the staff side of checkout settings over one ent client.
type CheckoutSettings struct {
	client *ent.Client
	now    func() time.Time
}

// NewCheckoutSettings returns a CheckoutSettings.
func NewCheckoutSettings(client *ent.Client) *CheckoutSettings {
	return &CheckoutSettings{client: client, now: time.Now}
}

// Documents lists the venue's checkout documents, oldest first.
func (s *CheckoutSettings) Documents(ctx context.Context) ([]*ent.CheckoutDocument, error) {
	if err := AuthorizeCheckoutSettings(ctx); err != nil {
		return nil, err
	}
	return s.client.CheckoutDocument.Query().
		Order(ent.Asc(checkoutdocument.FieldCreatedAt), ent.Asc(checkoutdocument.FieldID)).All(ctx)
}

// CheckoutDocumentParams are a new document.
type CheckoutDocumentParams struct {
	Kind        checkoutdocument.Kind
	Title, Body string
	// PassTypeIDs are the pass types whose purchase needs it; none: every
	// purchase.
	PassTypeIDs []uuid.UUID
}

// checkDocumentPassTypes refuses ids that are not the venue's pass types (404).
func (s *CheckoutSettings) checkDocumentPassTypes(ctx context.Context, ids []uuid.UUID) ([]string, error) {
	if len(ids) > MaxDocumentPassTypeRefs {
		return nil, apperr.Validation("pass_type_ids", "at most 100 pass types")
	}
	uniq := slices.Compact(slices.SortedFunc(slices.Values(ids), func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) }))
	if len(uniq) == 0 {
		return nil, nil
	}
	n, err := s.client.PassType.Query().Where(passtype.IDIn(uniq...)).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("checkout settings: pass types: %w", err)
	}
	if n != len(uniq) {
		return nil, apperr.NotFound("pass type")
	}
	out := make([]string, len(uniq))
	for i, id := range uniq {
		out[i] = id.String()
	}
	return out, nil
}

func checkDocumentText(title, body string) error {
	if strings.TrimSpace(title) == "" {
		return apperr.Validation("title", "a title is required")
	}
	if strings.TrimSpace(body) == "" {
		return apperr.Validation("body", "the document's text is required")
	}
	return nil
}

// CreateDocument publishes a new document at its first version.
func (s *CheckoutSettings) CreateDocument(ctx context.Context, p CheckoutDocumentParams) (*ent.CheckoutDocument, error) {
	if err := AuthorizeCheckoutSettings(ctx); err != nil {
		return nil, err
	}
	if err := checkDocumentText(p.Title, p.Body); err != nil {
		return nil, err
	}
	refs, err := s.checkDocumentPassTypes(ctx, p.PassTypeIDs)
	if err != nil {
		return nil, err
	}
	var doc *ent.CheckoutDocument
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.CheckoutDocument.Create().SetKind(p.Kind).SetTitle(strings.TrimSpace(p.Title)).SetBody(p.Body).
			SetVersionID(uuid.New())
		if refs != nil {
			c.SetPassTypeIds(refs)
		}
		if doc, err = c.Save(ctx); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "checkout_document.created", Target: doc.ID.String(),
			Details: map[string]any{"kind": string(doc.Kind), "version_id": doc.VersionID.String(), "pass_type_ids": refs}})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checkout settings: create document: %w", err)
	}
	return doc, nil
}

// CheckoutDocumentVersionParams are a document's new version: its text, and a new title
// when set.
type CheckoutDocumentVersionParams struct {
	Title *string
	Body  string
}

// NewVersion gives document id a new version (a new version_id): every
// signature of an earlier version is stale from now on, so members sign
// again before their next purchase. An inactive document is active again.
func (s *CheckoutSettings) NewVersion(ctx context.Context, id uuid.UUID, p CheckoutDocumentVersionParams) (*ent.CheckoutDocument, error) {
	if err := AuthorizeCheckoutSettings(ctx); err != nil {
		return nil, err
	}
	var doc *ent.CheckoutDocument
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.CheckoutDocument.Query().Where(checkoutdocument.ID(id)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("document")
		}
		if err != nil {
			return err
		}
		title := cur.Title
		if p.Title != nil {
			title = strings.TrimSpace(*p.Title)
		}
		if err := checkDocumentText(title, p.Body); err != nil {
			return err
		}
		prev := cur.VersionID
		if doc, err = tx.CheckoutDocument.UpdateOne(cur).SetTitle(title).SetBody(p.Body).SetVersionID(uuid.New()).
			SetActive(true).Save(ctx); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "checkout_document.versioned", Target: doc.ID.String(),
			Details: map[string]any{"previous_version_id": prev.String(), "version_id": doc.VersionID.String()}})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checkout settings: new version: %w", err)
	}
	return doc, nil
}

// SetDocumentActive deactivates (active false) or reactivates document id.
// An inactive document is required by no purchase and cannot be signed;
// reactivated, it is required again at its current version, so signatures
// of that version count again. Setting the state it is in changes nothing
// and records nothing.
func (s *CheckoutSettings) SetDocumentActive(ctx context.Context, id uuid.UUID, active bool) (*ent.CheckoutDocument, error) {
	if err := AuthorizeCheckoutSettings(ctx); err != nil {
		return nil, err
	}
	var doc *ent.CheckoutDocument
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.CheckoutDocument.Query().Where(checkoutdocument.ID(id)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("document")
		}
		if err != nil {
			return err
		}
		if cur.Active == active {
			doc = cur
			return nil
		}
		if doc, err = tx.CheckoutDocument.UpdateOne(cur).SetActive(active).Save(ctx); err != nil {
			return err
		}
		action := "checkout_document.deactivated"
		if active {
			action = "checkout_document.reactivated"
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: action, Target: doc.ID.String(),
			Details: map[string]any{"version_id": doc.VersionID.String()}})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checkout settings: document active: %w", err)
	}
	return doc, nil
}

// SetBindingTiers replaces the binding-month tiers of a recurring pass type
// (none removes them): each tier's months (1 to 60, each once) and its
// price per billing period in the pass type's currency.
func (s *CheckoutSettings) SetBindingTiers(ctx context.Context, passTypeID uuid.UUID, tiers []model.BindingTier) (*ent.PassType, error) {
	if err := AuthorizeCheckoutSettings(ctx); err != nil {
		return nil, err
	}
	if len(tiers) > MaxBindingTiers {
		return nil, apperr.Validation("tiers", "at most 12 tiers")
	}
	seen := map[int]bool{}
	for _, t := range tiers {
		switch {
		case t.Months < 1 || t.Months > MaxBindingTierMonths:
			return nil, apperr.Validation("tiers", "months must be 1 to 60")
		case seen[t.Months]:
			return nil, apperr.Validation("tiers", "each number of months once")
		case t.PriceMinor < 0 || t.PriceMinor > MaxBindingTierPriceMinor:
			return nil, apperr.Validation("tiers", "price_minor must be 0 to 10000000000")
		}
		seen[t.Months] = true
	}
	sorted := slices.Clone(tiers)
	slices.SortFunc(sorted, func(a, b model.BindingTier) int { return a.Months - b.Months })
	var pt *ent.PassType
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.PassType.Query().Where(passtype.ID(passTypeID)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("pass type")
		}
		if err != nil {
			return err
		}
		if !cur.IsRecurring && len(sorted) > 0 {
			return apperr.Validation("tiers", "binding tiers are for recurring memberships")
		}
		upd := tx.PassType.UpdateOne(cur)
		if len(sorted) == 0 {
			upd.ClearBindingTiers()
		} else {
			upd.SetBindingTiers(sorted)
		}
		if pt, err = upd.Save(ctx); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "pass_type.binding_tiers_set", Target: pt.ID.String(),
			Details: map[string]any{"tiers": sorted}})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checkout settings: binding tiers: %w", err)
	}
	return pt, nil
}

// SetBirthDate records (or, with nil, clears) member memberID's date of
// birth: a date in the past, at most 130 years ago.
func (s *CheckoutSettings) SetBirthDate(ctx context.Context, memberID uuid.UUID, born *time.Time) (*ent.Member, error) {
	if err := AuthorizeCheckoutSettings(ctx); err != nil {
		return nil, err
	}
	if born != nil {
		d := time.Date(born.Year(), born.Month(), born.Day(), 0, 0, 0, 0, time.UTC)
		today := s.now().UTC()
		if !d.Before(today) || d.Before(today.AddDate(-130, 0, 0)) {
			return nil, apperr.Validation("birth_date", "a date in the past, at most 130 years ago")
		}
		born = &d
	}
	var m *ent.Member
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.Member.Get(ctx, memberID)
		if ent.IsNotFound(err) {
			return apperr.NotFound("member")
		}
		if err != nil {
			return err
		}
		upd := tx.Member.UpdateOne(cur)
		if born == nil {
			upd.ClearBirthDate()
		} else {
			upd.SetBirthDate(*born)
		}
		if m, err = upd.Save(ctx); err != nil {
			return err
		}
		// The date itself stays out of the audit trail (personal data).
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "member.birth_date_set", Target: m.ID.String(),
			Details: map[string]any{"cleared": born == nil}})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checkout settings: birth date: %w", err)
	}
	return m, nil
}
