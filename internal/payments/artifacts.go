package payments

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/artifactsignature"
	"github.com/venueplatform/venue/ent/checkoutdocument"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
)

// Checkout artifacts: the documents a venue asks a member to sign before a
// purchase (waiver, terms of service, privacy notice, contract), each at its
// current version. A signature is one row per member, document and version:
// signing again answers the first signature. A signature of a version that is
// no longer current is 409 STALE (details.reason stale_version, with the
// current version), and a member under 18 is 409 PARENTAL_CONSENT_REQUIRED.
// A purchase of a pass type checks that every active document that applies
// to it (all pass types, or the ones it lists) is signed at its current
// version, else 422 SIGNATURE_REQUIRED naming what is missing.

// Error codes of checkout artifacts.
const (
	CodeParentalConsent   = "PARENTAL_CONSENT_REQUIRED"
	CodeSignatureRequired = "SIGNATURE_REQUIRED"
	CodeStale             = "STALE"
	// CodeDocumentInactive refuses signing a document staff deactivated.
	CodeDocumentInactive = "DOCUMENT_INACTIVE"
)

// AdultAge is the age from which a member signs for themselves.
const AdultAge = 18

// A BirthDates source reads a member's date of birth in the viewer's venue;
// nil without one.
type BirthDates func(ctx context.Context, client *ent.Client, memberID uuid.UUID) (*time.Time, error)

var (
	birthDatesMu sync.RWMutex
	birthDates   BirthDates
)

// RegisterBirthDates sets where signing reads members' dates of birth. By
// default (nil) it is the member row's birth_date, the date the venue
// recorded (the one the VAT age exemption reads too); for a member without a
// recorded date, no member is taken for a minor.
func RegisterBirthDates(f BirthDates) {
	birthDatesMu.Lock()
	defer birthDatesMu.Unlock()
	birthDates = f
}

func birthDateOf(ctx context.Context, c *ent.Client, memberID uuid.UUID) (*time.Time, error) {
	birthDatesMu.RLock()
	f := birthDates
	birthDatesMu.RUnlock()
	if f != nil {
		return f(ctx, c, memberID)
	}
	m, err := c.Member.Get(ctx, memberID)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return m.BirthDate, nil
}

// SignParams are a member's signature of a checkout document.
type SignParams struct {
	Kind             checkoutdocument.Kind
	DocumentID       uuid.UUID
	VersionID        uuid.UUID
	SignatureData    string
	SavedSignatureID string
	PassTypeSlug     string
	StartDate        *time.Time
}

// Signed is a signature and whether this call made it.
type Signed struct {
	Signature *ent.ArtifactSignature
	Created   bool
}

// SignArtifact records the member memberID's signature of a document of the
// viewer's venue. Unknown and another venue's documents are 404; a
// document staff deactivated is 409 DOCUMENT_INACTIVE; a kind that is not
// the document's, or neither signature_data nor saved_signature_id, is 400.
func (s *Service) SignArtifact(ctx context.Context, memberID uuid.UUID, p SignParams) (*Signed, error) {
	doc, err := s.client.CheckoutDocument.Query().Where(checkoutdocument.ID(p.DocumentID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("document")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: document: %w", err)
	}
	if !doc.Active {
		return nil, (&apperr.Error{Status: http.StatusConflict, Code: CodeDocumentInactive,
			Message: "the venue withdrew this document: no purchase needs it signed"}).With("next_step", "refresh")
	}
	if doc.Kind != p.Kind {
		return nil, apperr.Validation("artifact_kind", "not the kind of this document")
	}
	if strings.TrimSpace(p.SignatureData) == "" && p.SavedSignatureID == "" {
		return nil, apperr.Validation("signature_data", "a signature or a saved signature is required")
	}
	if p.PassTypeSlug != "" {
		ok, err := s.client.PassType.Query().Where(passtype.Slug(p.PassTypeSlug), passtype.Active(true)).Exist(ctx)
		if err != nil {
			return nil, fmt.Errorf("payments: pass type: %w", err)
		}
		if !ok {
			return nil, apperr.Validation("pass_type_slug", "no active pass type of this slug")
		}
	}
	prev, err := s.client.ArtifactSignature.Query().Where(artifactsignature.MemberID(memberID),
		artifactsignature.DocumentID(doc.ID), artifactsignature.VersionID(p.VersionID)).Only(ctx)
	if err == nil {
		return &Signed{Signature: prev}, nil // idempotent per member, document and version
	}
	if !ent.IsNotFound(err) {
		return nil, fmt.Errorf("payments: signature: %w", err)
	}
	if p.VersionID != doc.VersionID {
		return nil, (&apperr.Error{Status: http.StatusConflict, Code: CodeStale,
			Message: "the document has a newer version; show it and sign again"}).
			With("reason", "stale_version").With("current_version_id", doc.VersionID.String()).With("next_step", "refresh")
	}
	born, err := birthDateOf(ctx, s.client, memberID)
	if err != nil {
		return nil, fmt.Errorf("payments: birth date: %w", err)
	}
	if born != nil && minorOn(*born, s.now()) {
		return nil, (&apperr.Error{Status: http.StatusConflict, Code: CodeParentalConsent,
			Message: "a member under 18 needs a parent's or guardian's consent"}).
			With("reason", "parental_consent_required").With("next_step", "contact_venue")
	}
	c := s.client.ArtifactSignature.Create().SetMemberID(memberID).SetDocumentID(doc.ID).SetVersionID(doc.VersionID).
		SetKind(artifactsignature.Kind(doc.Kind)).SetSignatureData(p.SignatureData).SetSignedAt(s.now()).
		SetNillableStartDate(p.StartDate)
	if p.SavedSignatureID != "" {
		c.SetSavedSignatureID(p.SavedSignatureID)
	}
	if p.PassTypeSlug != "" {
		c.SetPassTypeSlug(p.PassTypeSlug)
	}
	sig, err := c.Save(ctx)
	if ent.IsConstraintError(err) { // the same signature, concurrently
		sig, err = s.client.ArtifactSignature.Query().Where(artifactsignature.MemberID(memberID),
			artifactsignature.DocumentID(doc.ID), artifactsignature.VersionID(doc.VersionID)).Only(ctx)
		if err == nil {
			return &Signed{Signature: sig}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("payments: sign: %w", err)
	}
	return &Signed{Signature: sig, Created: true}, nil
}

// minorOn says whether someone born on born is under AdultAge on day now
// (the birthday itself counts as the new age).
func minorOn(born, now time.Time) bool {
	y, m, d := born.Date()
	adult := time.Date(y+AdultAge, m, d, 0, 0, 0, 0, time.UTC)
	ny, nm, nd := now.Date()
	return time.Date(ny, nm, nd, 0, 0, 0, 0, time.UTC).Before(adult)
}

// MissingArtifact is a document a purchase needs signed at its version.
type MissingArtifact struct {
	Kind       string    `json:"artifact_kind"`
	DocumentID uuid.UUID `json:"document_id"`
	VersionID  uuid.UUID `json:"version_id"`
}

// requireArtifacts refuses a purchase of pt by memberID while an active
// document that applies to pt is not signed at its current version: 422
// SIGNATURE_REQUIRED with details.missing.
func (s *Service) requireArtifacts(ctx context.Context, memberID uuid.UUID, pt *ent.PassType) error {
	docs, err := s.client.CheckoutDocument.Query().Where(checkoutdocument.Active(true)).
		Order(ent.Asc(checkoutdocument.FieldCreatedAt), ent.Asc(checkoutdocument.FieldID)).All(ctx)
	if err != nil {
		return fmt.Errorf("payments: documents: %w", err)
	}
	var missing []MissingArtifact
	for _, d := range docs {
		if len(d.PassTypeIds) > 0 && !slices.Contains(d.PassTypeIds, pt.ID.String()) {
			continue
		}
		ok, err := s.client.ArtifactSignature.Query().Where(artifactsignature.MemberID(memberID),
			artifactsignature.DocumentID(d.ID), artifactsignature.VersionID(d.VersionID)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("payments: signatures: %w", err)
		}
		if !ok {
			missing = append(missing, MissingArtifact{Kind: string(d.Kind), DocumentID: d.ID, VersionID: d.VersionID})
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeSignatureRequired,
		Message: "documents must be signed before this purchase"}).With("missing", missing).With("next_step", nil)
}
