package feedback

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entfeedback "github.com/venueplatform/venue/ent/feedback"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/viewer"
)

// PermView is the staff permission of the reviews list.
const PermView = "feedback.view"

// Review is a review as staff read it: the member is nil for an anonymous
// review.
type Review struct {
	Feedback   *ent.Feedback
	MemberID   *uuid.UUID
	MemberName string
	ClassName  string
}

// ListParams narrow the reviews list.
type ListParams struct {
	ClassInstanceID *uuid.UUID
	Limit           int
	After           string
}

// requireView refuses a caller without feedback.view in its venue: 403
// ACCESS_DENIED, reason permission.
func requireView(ctx context.Context) error {
	u, ok := viewer.UserFromContext(ctx)
	if ok && u.MemberID == uuid.Nil && u.HasPermission(PermView) {
		return nil
	}
	return apperr.AccessDenied("permission", "a required staff permission is missing").
		With("required_permissions", []string{PermView})
}

// List returns one page of the viewer's venue's reviews, newest first.
func (s *Service) List(ctx context.Context, signer *pagination.Signer, p ListParams) ([]Review, pagination.CursorMeta, error) {
	if err := requireView(ctx); err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	list := "admin.feedback"
	if p.ClassInstanceID != nil {
		list += ":" + p.ClassInstanceID.String()
	}
	var k pagination.TimeID
	has, err := signer.After(list, p.After, &k)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	q := s.client.Feedback.Query().WithClassInstance(func(q *ent.ClassInstanceQuery) { q.WithClassType() }).
		Order(ent.Desc(entfeedback.FieldCreatedAt), ent.Desc(entfeedback.FieldID)).Limit(p.Limit + 1)
	if p.ClassInstanceID != nil {
		q.Where(entfeedback.ClassInstanceID(*p.ClassInstanceID))
	}
	if has {
		q.Where(entfeedback.Or(entfeedback.CreatedAtLT(k.At),
			entfeedback.And(entfeedback.CreatedAt(k.At), entfeedback.IDLT(k.ID))))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, fmt.Errorf("feedback: list: %w", err)
	}
	rows, meta, err := pagination.Next(signer, list, rows, p.Limit, func(f *ent.Feedback) any {
		return pagination.TimeID{At: f.CreatedAt, ID: f.ID}
	})
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	var named []uuid.UUID
	for _, f := range rows {
		if !f.Anonymous {
			named = append(named, f.MemberID)
		}
	}
	names := map[uuid.UUID]string{}
	if len(named) > 0 {
		ms, err := s.client.Member.Query().Where(member.IDIn(named...)).WithUser().All(ctx)
		if err != nil {
			return nil, pagination.CursorMeta{}, fmt.Errorf("feedback: members: %w", err)
		}
		for _, m := range ms {
			if m.Edges.User != nil {
				names[m.ID] = strings.TrimSpace(m.Edges.User.FirstName + " " + m.Edges.User.LastName)
			}
		}
	}
	out := make([]Review, 0, len(rows))
	for _, f := range rows {
		r := Review{Feedback: f}
		if ci := f.Edges.ClassInstance; ci != nil && ci.Edges.ClassType != nil {
			r.ClassName = ci.Edges.ClassType.Name
		}
		if !f.Anonymous {
			id := f.MemberID
			r.MemberID, r.MemberName = &id, names[f.MemberID]
		}
		out = append(out, r)
	}
	return out, meta, nil
}
