package venue

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
	"golang.org/x/text/currency"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Defaults of a new venue.
const (
	DefaultPlan     = "pro"
	DefaultCurrency = "DKK"
	DefaultTimezone = "Europe/Copenhagen"
)

// slugPattern is the shape of a venue slug (the schema enforces the same).
var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// Venue is an organization with its feature provisioning.
type Venue struct {
	*ent.Organization
	// Features is the venue's FeatureProvisioning row; nil only for a venue
	// created outside this package without one.
	Features *ent.FeatureProvisioning
}

// APIEnabled reports the feature flag feature_provisioning.api_enabled.
func (v *Venue) APIEnabled() bool { return v.Features != nil && v.Features.APIEnabled }

// CreateParams describes a new venue. Empty Plan, Currency and Timezone take
// the defaults.
type CreateParams struct {
	Name       string
	Slug       string
	Plan       string
	Currency   string
	Timezone   string
	APIEnabled bool
}

// Create creates a venue and its FeatureProvisioning row in one transaction.
// A slug in use gives ErrSlugTaken; a malformed field gives ErrInvalid.
func Create(ctx context.Context, client *ent.Client, p CreateParams) (*Venue, error) {
	p.Plan = orDefault(p.Plan, DefaultPlan)
	p.Currency = orDefault(p.Currency, DefaultCurrency)
	p.Timezone = orDefault(p.Timezone, DefaultTimezone)
	if err := validateCreate(p); err != nil {
		return nil, err
	}
	// System call site: a venue is created before any viewer of it can exist.
	sctx := system.Allow(ctx, "venue.create")
	taken, err := client.Organization.Query().Where(organization.SlugEQ(p.Slug)).Exist(sctx)
	if err != nil {
		return nil, fmt.Errorf("check slug: %w", err)
	}
	if taken {
		return nil, fmt.Errorf("%w: %q", ErrSlugTaken, p.Slug)
	}
	var v *Venue
	err = withTx(sctx, client, func(c *ent.Client) error {
		org, err := c.Organization.Create().
			SetName(p.Name).SetSlug(p.Slug).SetPlan(organization.Plan(p.Plan)).
			SetCurrency(p.Currency).SetTimezone(p.Timezone).
			Save(sctx)
		if err != nil {
			return err
		}
		fp, err := c.FeatureProvisioning.Create().
			SetOrganizationID(org.ID).SetAPIEnabled(p.APIEnabled).
			Save(sctx)
		if err != nil {
			return err
		}
		v = &Venue{Organization: org, Features: fp}
		return nil
	})
	if ent.IsConstraintError(err) {
		return nil, fmt.Errorf("%w: %q", ErrSlugTaken, p.Slug)
	}
	if err != nil {
		return nil, fmt.Errorf("create venue: %w", err)
	}
	return v, nil
}

// UpdateParams lists the changes of Update; nil fields stay as they are.
type UpdateParams struct {
	Plan       *string
	APIEnabled *bool
}

// Update changes a venue's plan or API flag. It acts as an operator of the
// venue, so the ordinary policies apply.
func Update(ctx context.Context, client *ent.Client, slug string, p UpdateParams) (*Venue, error) {
	if p.Plan != nil {
		if err := organization.PlanValidator(organization.Plan(*p.Plan)); err != nil {
			return nil, fmt.Errorf("%w: plan %q (want starter, pro or enterprise)", ErrInvalid, *p.Plan)
		}
	}
	v, err := BySlug(ctx, client, slug)
	if err != nil {
		return nil, err
	}
	octx := system.Elevate(ctx, "venue.update_operator", viewer.Operator{Org: v.ID, Name: "venuectl"})
	err = withTx(octx, client, func(c *ent.Client) error {
		if p.Plan != nil {
			org, err := c.Organization.UpdateOneID(v.ID).SetPlan(organization.Plan(*p.Plan)).Save(octx)
			if err != nil {
				return err
			}
			v.Organization = org
		}
		if p.APIEnabled != nil {
			if v.Features == nil {
				fp, err := c.FeatureProvisioning.Create().SetAPIEnabled(*p.APIEnabled).Save(octx)
				if err != nil {
					return err
				}
				v.Features = fp
				return nil
			}
			fp, err := c.FeatureProvisioning.UpdateOneID(v.Features.ID).SetAPIEnabled(*p.APIEnabled).Save(octx)
			if err != nil {
				return err
			}
			v.Features = fp
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("update venue: %w", err)
	}
	return v, nil
}

// List returns every venue, ordered by slug.
func List(ctx context.Context, client *ent.Client) ([]*Venue, error) {
	// System call site: listing spans all venues; only the operator's shell
	// (venuectl) and the demo bootstrap call it.
	sctx := system.Allow(ctx, "venue.list")
	orgs, err := client.Organization.Query().Order(organization.BySlug()).All(sctx)
	if err != nil {
		return nil, fmt.Errorf("list venues: %w", err)
	}
	fps, err := client.FeatureProvisioning.Query().All(sctx)
	if err != nil {
		return nil, fmt.Errorf("list venues: %w", err)
	}
	byOrg := make(map[uuid.UUID]*ent.FeatureProvisioning, len(fps))
	for _, fp := range fps {
		byOrg[fp.OrganizationID] = fp
	}
	out := make([]*Venue, len(orgs))
	for i, o := range orgs {
		out[i] = &Venue{Organization: o, Features: byOrg[o.ID]}
	}
	return out, nil
}

func validateCreate(p CreateParams) error {
	if strings.TrimSpace(p.Name) == "" {
		return fmt.Errorf("%w: name is empty", ErrInvalid)
	}
	if len(p.Name) > 200 {
		return fmt.Errorf("%w: name is longer than 200 characters", ErrInvalid)
	}
	if err := ValidateSlug(p.Slug); err != nil {
		return err
	}
	if err := organization.PlanValidator(organization.Plan(p.Plan)); err != nil {
		return fmt.Errorf("%w: plan %q (want starter, pro or enterprise)", ErrInvalid, p.Plan)
	}
	if err := ValidateCurrency(p.Currency); err != nil {
		return err
	}
	if _, err := LoadLocation(p.Timezone); err != nil {
		return err
	}
	return nil
}

// ValidateSlug checks the shape of a venue slug: lower-case letters and
// digits in words joined by single hyphens, at most 100 characters.
func ValidateSlug(slug string) error {
	if len(slug) > 100 || !slugPattern.MatchString(slug) {
		return fmt.Errorf("%w: slug %q (want lower-case letters and digits joined by single hyphens, e.g. hot-yoga-cph)", ErrInvalid, slug)
	}
	return nil
}

// ValidateCurrency checks that code is an upper-case ISO 4217 currency code.
func ValidateCurrency(code string) error {
	if len(code) != 3 || strings.ToUpper(code) != code {
		return fmt.Errorf("%w: currency %q (want an ISO 4217 code such as DKK)", ErrInvalid, code)
	}
	if _, err := currency.ParseISO(code); err != nil {
		return fmt.Errorf("%w: currency %q is not an ISO 4217 code", ErrInvalid, code)
	}
	return nil
}

// LoadLocation loads an IANA time zone by name, refusing the empty name and
// "Local", which name no fixed zone.
func LoadLocation(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("%w: time zone %q (want an IANA name such as Europe/Copenhagen)", ErrInvalid, name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%w: time zone %q is not an IANA time zone", ErrInvalid, name)
	}
	return loc, nil
}

// withTx runs fn in a transaction, or directly when client is already
// transactional.
func withTx(ctx context.Context, client *ent.Client, fn func(*ent.Client) error) error {
	tx, err := client.Tx(ctx)
	if errors.Is(err, ent.ErrTxStarted) {
		return fn(client)
	}
	if err != nil {
		return err
	}
	if err := fn(tx.Client()); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ByAPIKey returns the venue an API key belongs to, or an ent not-found
// error, so that an operator holding only a key id can act on it.
func ByAPIKey(ctx context.Context, client *ent.Client, keyID uuid.UUID) (*Venue, error) {
	// System call site: the operator names a key by id alone; only the
	// key's venue is read, and the caller then acts as that venue's
	// operator through the ordinary policies.
	sctx := system.Allow(ctx, "venue.resolve")
	k, err := client.APIKey.Get(sctx, keyID)
	if err != nil {
		return nil, err
	}
	org, err := client.Organization.Get(sctx, k.OrganizationID)
	if err != nil {
		return nil, err
	}
	return BySlug(ctx, client, org.Slug)
}
