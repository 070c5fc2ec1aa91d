package billing

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
)

// Audit actions of pass suspension.
const (
	AuditPassSuspended   = "pass_suspended"
	AuditPassUnsuspended = "pass_unsuspended"
)

func passNotFound() *apperr.Error { return apperr.NotFound("pass").With("next_step", nil) }

// Suspend suspends an active pass of the viewer's venue (venue-imposed: it
// books nothing until unsuspended). Renewals go on; the member is not told.
func (s *Service) Suspend(ctx context.Context, id uuid.UUID, reason string) (*ent.Pass, error) {
	return s.setPassStatus(ctx, id, pass.StatusActive, pass.StatusSuspended, AuditPassSuspended, reason, func(st pass.Status) error {
		return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodePassNotEligible,
			Message: "only an active pass can be suspended"}).With("status", string(st)).With("next_step", nil)
	})
}

// Unsuspend lifts a suspension: the pass is active again.
func (s *Service) Unsuspend(ctx context.Context, id uuid.UUID, reason string) (*ent.Pass, error) {
	return s.setPassStatus(ctx, id, pass.StatusSuspended, pass.StatusActive, AuditPassUnsuspended, reason, func(st pass.Status) error {
		return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotSuspended,
			Message: "the pass is not suspended"}).With("status", string(st)).With("next_step", nil)
	})
}

func (s *Service) setPassStatus(ctx context.Context, id uuid.UUID, from, to pass.Status, action, reason string, refuse func(pass.Status) error) (*ent.Pass, error) {
	var out *ent.Pass
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		p, err := tx.Pass.Query().Where(pass.ID(id)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return passNotFound()
		}
		if err != nil {
			return err
		}
		if p.Status != from {
			return refuse(p.Status)
		}
		if out, err = tx.Pass.UpdateOne(p).SetStatus(to).Save(ctx); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: action, Target: "pass:" + id.String(),
			Details: map[string]any{"reason": reason, "member_id": p.MemberID.String(), "from": string(from), "to": string(to)}})
		return err
	})
	return out, err
}
