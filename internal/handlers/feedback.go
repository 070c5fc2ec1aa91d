package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/feedback"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/pagination"
)

// CreateFeedback implements api.Handler.
func (h *Handler) CreateFeedback(ctx context.Context, req *api.FeedbackCreateRequest, p api.CreateFeedbackParams) (*api.FeedbackCreateResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	fp := feedback.Params{ClassInstanceID: req.ClassInstanceID, BookingID: req.BookingID, Rating: req.Rating,
		Comment: req.Comment.Or(""), Anonymous: req.Anonymous.Or(false)}
	if t, ok := req.Tip.Get(); ok {
		fp.Tip = &feedback.Tip{Amount: t.Amount, Currency: t.Currency, Anonymous: t.Anonymous.Or(false)}
	}
	g, err := feedback.New(h.client, h.payments()).Give(mctx, mid, fp)
	if err != nil {
		return nil, err
	}
	f := g.Feedback
	out := api.Feedback{ID: f.ID, ClassInstanceID: f.ClassInstanceID, BookingID: f.BookingID, Rating: f.Rating,
		Comment: f.Comment, Anonymous: f.Anonymous, CreatedAt: f.CreatedAt.UTC()}
	if g.Tip != nil {
		out.Tip = api.NewNilTipCreated(tipCreated(g.Tip))
	} else {
		out.Tip.SetToNull()
	}
	return &api.FeedbackCreateResponse{Data: out}, nil
}

// ListAdminFeedback implements api.Handler.
func (h *Handler) ListAdminFeedback(ctx context.Context, p api.ListAdminFeedbackParams) (*api.AdminFeedbackListResponse, error) {
	limit, err := pagination.CursorLists.ParseLimit(pagination.Value(p.Limit.Value, p.Limit.Set))
	if err != nil {
		return nil, err
	}
	signer, err := h.cursorSigner()
	if err != nil {
		return nil, apperr.Internal(err)
	}
	lp := feedback.ListParams{Limit: limit, After: p.After.Value}
	if id, ok := p.ClassInstanceID.Get(); ok {
		lp.ClassInstanceID = &id
	}
	rows, meta, err := feedback.New(h.client, h.payments()).List(ctx, signer, lp)
	if err != nil {
		return nil, err
	}
	out := &api.AdminFeedbackListResponse{Data: make([]api.AdminFeedback, 0, len(rows)),
		Meta: api.MyPaymentListMeta{Limit: meta.Limit, HasMore: meta.HasMore}}
	if meta.NextCursor != nil {
		out.Meta.NextCursor = api.NewNilString(*meta.NextCursor)
	} else {
		out.Meta.NextCursor.SetToNull()
	}
	for _, r := range rows {
		f := r.Feedback
		item := api.AdminFeedback{ID: f.ID, ClassInstanceID: f.ClassInstanceID, ClassName: r.ClassName, BookingID: f.BookingID,
			Rating: f.Rating, Comment: f.Comment, Anonymous: f.Anonymous, CreatedAt: f.CreatedAt.UTC()}
		if r.MemberID != nil {
			item.MemberID = api.NewNilUUID(*r.MemberID)
			item.MemberName = api.NewNilString(r.MemberName)
		} else {
			item.MemberID.SetToNull()
			item.MemberName.SetToNull()
		}
		if f.InstructorID != nil {
			item.InstructorID = api.NewNilUUID(*f.InstructorID)
		} else {
			item.InstructorID.SetToNull()
		}
		if f.TipID != nil {
			item.TipID = api.NewNilUUID(*f.TipID)
		} else {
			item.TipID.SetToNull()
		}
		out.Data = append(out.Data, item)
	}
	return out, nil
}
