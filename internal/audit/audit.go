package audit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Actor kinds and outcomes of an entry.
const (
	KindAPIKey   = "api_key"
	KindUser     = "user"
	KindOperator = "operator"
	KindSystem   = "system"

	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
	OutcomeDenied  = "denied"
)

// ErrNoVenue means Record was called without a venue viewer in the context.
var ErrNoVenue = errors.New("audit: no venue viewer in context")

// Entry is one action to record. Empty Actor, ActorKind and APIKeyID are
// taken from the viewer of the context; an empty Outcome is success.
type Entry struct {
	Actor     string
	ActorKind string
	APIKeyID  *uuid.UUID
	UserID    *uuid.UUID
	Action    string
	Target    string
	Outcome   string
	Details   map[string]any
	Duration  time.Duration
}

// Record appends e to the audit trail of the viewer's venue.
func Record(ctx context.Context, client *ent.Client, e Entry) (*ent.AuditLog, error) {
	r, err := newRow(ctx, e)
	if err != nil {
		return nil, err
	}
	// System call site: read-only viewers (API keys with read scopes only)
	// must leave entries too; the create hook still binds the entry to the
	// viewer's venue.
	sctx := system.Allow(ctx, "audit.record")
	out, err := r.create(client).Save(sctx)
	if err != nil {
		return nil, fmt.Errorf("audit: record %s: %w", e.Action, err)
	}
	return out, nil
}

// row is an entry checked against its caller's viewer: actor, key and
// venue filled in, stamped with the time it was recorded.
type row struct {
	Entry
	org uuid.UUID
	at  time.Time
}

// newRow checks e against the viewer of ctx and completes it from there.
func newRow(ctx context.Context, e Entry) (row, error) {
	org, ok := viewer.VenueFromContext(ctx)
	if !ok {
		return row{}, ErrNoVenue
	}
	fillFromViewer(&e, viewer.FromContext(ctx))
	if e.Outcome == "" {
		e.Outcome = OutcomeSuccess
	}
	if e.Action == "" {
		return row{}, errors.New("audit: empty action")
	}
	return row{Entry: e, org: org, at: time.Now()}, nil
}

// create builds the insert of r. The venue is explicit so that a batch
// written outside its callers' requests keeps each entry's own venue; the
// create hook checks it against the viewer where there is one.
func (r row) create(client *ent.Client) *ent.AuditLogCreate {
	c := client.AuditLog.Create().
		SetOrganizationID(r.org).
		SetCreatedAt(r.at).
		SetUpdatedAt(r.at).
		SetActor(r.Actor).
		SetActorKind(auditlog.ActorKind(r.ActorKind)).
		SetNillableAPIKeyID(r.APIKeyID).
		SetNillableUserID(r.UserID).
		SetAction(r.Action).
		SetTarget(r.Target).
		SetOutcome(auditlog.Outcome(r.Outcome))
	if r.Details != nil {
		c.SetDetails(r.Details)
	}
	if r.Duration > 0 {
		c.SetDurationMs(r.Duration.Milliseconds())
	}
	return c
}

// List returns the newest limit entries of the viewer's venue, newest first.
// A limit of zero or less means 100.
func List(ctx context.Context, client *ent.Client, limit int) ([]*ent.AuditLog, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := client.AuditLog.Query().
		Order(auditlog.ByCreatedAt(sql.OrderDesc()), auditlog.ByID(sql.OrderDesc())).
		Limit(limit).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("audit: list: %w", err)
	}
	return rows, nil
}

func fillFromViewer(e *Entry, v viewer.Viewer) {
	if e.Actor == "" {
		e.Actor = v.Actor()
	}
	switch k := v.(type) {
	case viewer.APIKey:
		if e.ActorKind == "" {
			e.ActorKind = KindAPIKey
		}
		if e.APIKeyID == nil {
			id := k.KeyID
			e.APIKeyID = &id
		}
	case viewer.Operator:
		if e.ActorKind == "" {
			e.ActorKind = KindOperator
		}
	}
	if e.ActorKind == "" {
		e.ActorKind = KindSystem
	}
}
