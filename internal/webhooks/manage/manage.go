package manage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/webhooksubscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/secretbox"
	"github.com/venueplatform/venue/internal/viewer"
	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/signature"
	"github.com/venueplatform/venue/internal/webhooks/store"
)

// PermissionManage is the staff permission that manages webhooks: they are part of the
// venue's business settings and integrations.
const PermissionManage = "settings.business"

// Limits of subscriptions.
const (
	// MaxSubscriptions is the most subscriptions a venue may have.
	MaxSubscriptions = 100
	// DefaultOverlap is how long a rotated-out secret keeps signing by default.
	DefaultOverlap = 24 * time.Hour
	// MaxOverlap is the longest overlap a rotation may ask for.
	MaxOverlap = 7 * 24 * time.Hour
	// defaultDisableReason is kept when staff disable without a reason.
	defaultDisableReason = "disabled by staff"
)

// Reasons and codes of refusals.
const (
	ReasonNeedsStaffSession = "webhooks_need_staff_session"
	ReasonPermission        = "permission"
	CodeLimitReached        = "WEBHOOK_LIMIT_REACHED"
	CodeDisabled            = "WEBHOOK_DISABLED"
)

// Service manages webhooks on an ent client.
type Service struct {
	client *ent.Client
	now    func() time.Time
	// options are the sender's options URLs are checked against.
	options deliver.Options
	// box seals the signing secrets it stores (nil: stored as they are).
	box *secretbox.Box
}

// New returns a Service that checks subscription URLs with the sender's
// options (webhooks.FromConfig) and seals secrets with box (nil: no sealing).
func New(client *ent.Client, options deliver.Options, box *secretbox.Box) *Service {
	return &Service{client: client, now: time.Now, options: options, box: box}
}

// authorize lets through a staff session of the venue holding PermissionManage.
func authorize(ctx context.Context) (viewer.User, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok || u.Org == uuid.Nil {
		return u, apperr.AccessDenied(ReasonNeedsStaffSession, "managing webhooks needs a staff session's bearer token")
	}
	if !u.HasPermission(PermissionManage) {
		return u, apperr.AccessDenied(ReasonPermission, "managing webhooks needs the settings.business permission").
			With("required_permissions", []string{PermissionManage})
	}
	return u, nil
}

// checkURL validates a subscription URL with the sender's options.
func (s *Service) checkURL(raw string) error {
	if _, err := deliver.CheckURL(raw, s.options); err != nil {
		reason := "invalid_url"
		if errors.Is(err, deliver.ErrBlockedAddress) {
			reason = "blocked_address"
		}
		return apperr.Validation("url", "the URL must be https to a public address").With("reason", reason)
	}
	return nil
}

// checkTypes validates selected event types: 1 to len(events.Types), known, distinct.
func checkTypes(types []string) error {
	bad := func(msg string) error {
		return apperr.Validation("event_types", msg).With("allowed", events.Types)
	}
	if len(types) == 0 {
		return bad("select at least one event type")
	}
	for i, t := range types {
		if !events.Known(t) {
			return bad(fmt.Sprintf("unknown event type %q", t))
		}
		if slices.Contains(types[:i], t) {
			return bad(fmt.Sprintf("event type %q listed twice", t))
		}
	}
	return nil
}

// CreateParams are the fields of a new subscription.
type CreateParams struct {
	URL         string
	EventTypes  []string
	Description string
}

// Create makes an enabled subscription and returns it with its secret, which is never
// shown again.
func (s *Service) Create(ctx context.Context, p CreateParams) (*ent.WebhookSubscription, string, error) {
	u, err := authorize(ctx)
	if err != nil {
		return nil, "", err
	}
	if err := s.checkURL(p.URL); err != nil {
		return nil, "", err
	}
	if err := checkTypes(p.EventTypes); err != nil {
		return nil, "", err
	}
	secret, err := signature.NewSecret()
	if err != nil {
		return nil, "", err
	}
	id := uuid.New()
	stored, err := s.box.Seal(secret, id.String())
	if err != nil {
		return nil, "", err
	}
	var sub *ent.WebhookSubscription
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		n, err := tx.WebhookSubscription.Query().Count(ctx)
		if err != nil {
			return err
		}
		if n >= MaxSubscriptions {
			return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeLimitReached,
				Message: fmt.Sprintf("a venue has at most %d webhook subscriptions", MaxSubscriptions)}
		}
		sub, err = tx.WebhookSubscription.Create().SetID(id).SetURL(p.URL).SetEventTypes(p.EventTypes).
			SetDescription(p.Description).SetSecret(stored).SetCreatedBy(u.Actor()).Save(ctx)
		if err != nil {
			return err
		}
		return s.audit(ctx, tx, "webhook.create", sub, map[string]any{"url": p.URL, "event_types": p.EventTypes})
	})
	if err != nil {
		return nil, "", err
	}
	return sub, secret, nil
}

// audit writes the entry of a change in its transaction; never the secret.
func (s *Service) audit(ctx context.Context, tx *ent.Tx, action string, sub *ent.WebhookSubscription, details map[string]any) error {
	_, err := audit.Record(ctx, tx.Client(), audit.Entry{
		Action: action, Target: "webhook_subscription:" + sub.ID.String(), Details: details,
	})
	return err
}

// List returns the venue's subscriptions, newest first.
func (s *Service) List(ctx context.Context) ([]*ent.WebhookSubscription, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, err
	}
	return s.client.WebhookSubscription.Query().
		Order(ent.Desc(webhooksubscription.FieldCreatedAt), ent.Desc(webhooksubscription.FieldID)).
		Limit(MaxSubscriptions).All(ctx)
}

// Get returns one subscription.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.WebhookSubscription, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, err
	}
	return s.get(ctx, s.client, id)
}

func (s *Service) get(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.WebhookSubscription, error) {
	sub, err := c.WebhookSubscription.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("webhook subscription")
	}
	return sub, err
}

// UpdateParams are the fields to change; nil leaves a field as it is.
type UpdateParams struct {
	URL         *string
	EventTypes  []string
	Description *string
	Enabled     *bool
}

// Update changes a subscription.
func (s *Service) Update(ctx context.Context, id uuid.UUID, p UpdateParams) (*ent.WebhookSubscription, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, err
	}
	if p.URL == nil && p.EventTypes == nil && p.Description == nil && p.Enabled == nil {
		return nil, apperr.Validation("body", "nothing to change")
	}
	if p.URL != nil {
		if err := s.checkURL(*p.URL); err != nil {
			return nil, err
		}
	}
	if p.EventTypes != nil {
		if err := checkTypes(p.EventTypes); err != nil {
			return nil, err
		}
	}
	var sub *ent.WebhookSubscription
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := s.get(ctx, tx.Client(), id)
		if err != nil {
			return err
		}
		if p.Enabled != nil && !*p.Enabled && cur.Enabled {
			if err := store.DisableSubscription(ctx, tx.Client(), id, defaultDisableReason, s.now()); err != nil {
				return err
			}
		}
		up := tx.WebhookSubscription.UpdateOneID(id)
		changed := map[string]any{}
		if p.URL != nil {
			up.SetURL(*p.URL)
			changed["url"] = *p.URL
		}
		if p.EventTypes != nil {
			up.SetEventTypes(p.EventTypes)
			changed["event_types"] = p.EventTypes
		}
		if p.Description != nil {
			up.SetDescription(*p.Description)
			changed["description"] = *p.Description
		}
		if p.Enabled != nil {
			changed["enabled"] = *p.Enabled
			if *p.Enabled {
				up.SetEnabled(true).ClearDisabledReason().ClearDisabledAt()
			}
		}
		if sub, err = up.Save(ctx); err != nil {
			return err
		}
		return s.audit(ctx, tx, "webhook.update", sub, changed)
	})
	if err != nil {
		return nil, err
	}
	return sub, nil
}

// Rotate issues a new secret; the current one becomes the previous secret and keeps
// signing for overlap (0 to MaxOverlap).
func (s *Service) Rotate(ctx context.Context, id uuid.UUID, overlap time.Duration) (*ent.WebhookSubscription, string, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, "", err
	}
	if overlap < 0 || overlap > MaxOverlap {
		return nil, "", apperr.Validation("overlap_minutes", "overlap_minutes must be 0 to 10080")
	}
	secret, err := signature.NewSecret()
	if err != nil {
		return nil, "", err
	}
	now := s.now()
	var sub *ent.WebhookSubscription
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := s.get(ctx, tx.Client(), id)
		if err != nil {
			return err
		}
		stored, err := s.box.Seal(secret, cur.ID.String())
		if err != nil {
			return err
		}
		// The previous secret keeps its stored (sealed) form: same row, same binding.
		up := tx.WebhookSubscription.UpdateOne(cur).SetSecret(stored).SetSecretRotatedAt(now)
		if overlap > 0 {
			up.SetPreviousSecret(cur.Secret).SetPreviousSecretExpiresAt(now.Add(overlap))
		} else {
			up.ClearPreviousSecret().ClearPreviousSecretExpiresAt()
		}
		if sub, err = up.Save(ctx); err != nil {
			return err
		}
		return s.audit(ctx, tx, "webhook.rotate_secret", sub, map[string]any{"overlap_minutes": int(overlap / time.Minute)})
	})
	if err != nil {
		return nil, "", err
	}
	return sub, secret, nil
}

// Disable stops deliveries to a subscription; disabling a disabled one changes nothing.
func (s *Service) Disable(ctx context.Context, id uuid.UUID, reason string) (*ent.WebhookSubscription, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, err
	}
	if reason == "" {
		reason = defaultDisableReason
	}
	var sub *ent.WebhookSubscription
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := s.get(ctx, tx.Client(), id)
		if err != nil {
			return err
		}
		if !cur.Enabled {
			sub = cur
			return nil
		}
		if err := store.DisableSubscription(ctx, tx.Client(), id, reason, s.now()); err != nil {
			return err
		}
		if sub, err = s.get(ctx, tx.Client(), id); err != nil {
			return err
		}
		return s.audit(ctx, tx, "webhook.disable", sub, map[string]any{"reason": reason})
	})
	if err != nil {
		return nil, err
	}
	return sub, nil
}
