package inquiries

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/inquiry"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Row is one inquiry of the user's own list, with its venue.
type Row struct {
	Inquiry *ent.Inquiry
	Venue   *ent.Organization
}

// Mine returns one page of the signed-in user's own inquiries across
// venues, newest first, after the cursor after (a cursor of this list and
// this user only).
func (s *Service) Mine(ctx context.Context, signer *pagination.Signer, limit int, after string) ([]Row, pagination.CursorMeta, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, pagination.CursorMeta{}, apperr.Unauthorized("a user session is required")
	}
	list := "me.inquiries:" + u.UserID.String()
	var k pagination.TimeID
	has, err := signer.After(list, after, &k)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	// System call site: the user's own inquiries across venues, bound to
	// the user's id (and the venues they were filed at, for their names).
	sctx := system.Allow(ctx, "inquiries.mine")
	q := s.client.Inquiry.Query().Where(inquiry.UserID(u.UserID)).
		Order(ent.Desc(inquiry.FieldCreatedAt), ent.Desc(inquiry.FieldID)).Limit(limit + 1)
	if has {
		q.Where(inquiry.Or(inquiry.CreatedAtLT(k.At), inquiry.And(inquiry.CreatedAt(k.At), inquiry.IDLT(k.ID))))
	}
	rows, err := q.All(sctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	rows, meta, err := pagination.Next(signer, list, rows, limit, func(i *ent.Inquiry) any {
		return pagination.TimeID{At: i.CreatedAt, ID: i.ID}
	})
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	ids := make([]uuid.UUID, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, r.OrganizationID)
	}
	orgs, err := s.client.Organization.Query().Where(organization.IDIn(ids...)).
		Select(organization.FieldName, organization.FieldSlug).All(sctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	byID := make(map[uuid.UUID]*ent.Organization, len(orgs))
	for _, o := range orgs {
		byID[o.ID] = o
	}
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		out = append(out, Row{Inquiry: r, Venue: byID[r.OrganizationID]})
	}
	return out, meta, nil
}
