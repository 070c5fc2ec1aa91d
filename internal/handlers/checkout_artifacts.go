package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent/checkoutdocument"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

// SignCheckoutArtifact implements api.Handler.
func (h *Handler) SignCheckoutArtifact(ctx context.Context, req *api.SignArtifactRequest, p api.SignCheckoutArtifactParams) (*api.SignArtifactResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	sp := payments.SignParams{
		Kind: checkoutdocument.Kind(req.ArtifactKind), DocumentID: req.DocumentID, VersionID: req.VersionID,
		SignatureData: req.SignatureData.Or(""), SavedSignatureID: req.SavedSignatureID.Or(""),
		PassTypeSlug: req.PassTypeSlug.Or(""),
	}
	if d, ok := req.StartDate.Get(); ok {
		sp.StartDate = &d
	}
	signed, err := h.payments().SignArtifact(mctx, mid, sp)
	if err != nil {
		return nil, err
	}
	sig := signed.Signature
	return &api.SignArtifactResponse{Data: api.SignArtifactResponseData{
		SignatureID: sig.ID, ArtifactKind: api.SignArtifactResponseDataArtifactKind(sig.Kind),
		DocumentID: sig.DocumentID, VersionID: sig.VersionID, SignedAt: sig.SignedAt.UTC(),
		AlreadySigned: !signed.Created,
	}}, nil
}
