package importer

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/service"
)

// SecServices is the section of a venue's appointment services.
const SecServices = "services"

// Service is an item of section services: an appointment service members
// may book or inquire about. An empty Slug is derived from the name; a
// missing Active or Listed is true, a missing AcceptsInquiries false.
type Service struct {
	Ref              string `json:"ref"`
	Name             string `json:"name"`
	Slug             string `json:"slug,omitempty"`
	Description      string `json:"description,omitempty"`
	Category         string `json:"category,omitempty"`
	DurationMinutes  *int   `json:"duration_minutes"`
	PriceMinor       *int64 `json:"price_minor"`
	Currency         string `json:"currency"`
	Active           *bool  `json:"active,omitempty"`
	Listed           *bool  `json:"listed,omitempty"`
	AcceptsInquiries *bool  `json:"accepts_inquiries,omitempty"`
	ImageURL         string `json:"image_url,omitempty"`
	SortOrder        *int   `json:"sort_order,omitempty"`
}

type servicePlan struct {
	it                       item
	in                       Service
	id                       uuid.UUID
	ex                       *ent.Service
	slug                     string
	active, listed, inquires bool
}

func addServiceRefs(d *Document, s refSet) {
	for _, x := range d.Services {
		s.add(SecServices, x.Ref)
	}
}

func loadServices(ctx context.Context, c *ent.Client, refs refSet, ex *existing) error {
	var err error
	if ex.services, err = byRef(ctx, refs[SecServices], func(ctx context.Context, r []string) ([]*ent.Service, error) {
		return c.Service.Query().Where(service.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Service) *string { return x.ImportRef }); err != nil {
		return fmt.Errorf("read existing %s: %w", SecServices, err)
	}
	return nil
}

func (p *plan) checkServices() {
	for i, in := range p.doc.Services {
		it, id, ok := p.begin(SecServices, i, in.Ref)
		if !ok {
			continue
		}
		s := &servicePlan{it: it, in: in, id: id, ex: p.db.services[in.Ref], active: true, listed: true}
		p.required(it, "name", in.Name, 200)
		if in.Slug != "" && (len(in.Slug) > 100 || !slugPattern.MatchString(in.Slug)) {
			p.ps.add(it, "slug", "invalid slug %q; want lower-case letters and digits joined by single hyphens", in.Slug)
		}
		if len(in.Category) > 100 {
			p.ps.add(it, "category", "longer than 100 characters")
		}
		if len(in.Description) > 5000 {
			p.ps.add(it, "description", "longer than 5000 characters")
		}
		if len(in.ImageURL) > 2000 {
			p.ps.add(it, "image_url", "longer than 2000 characters")
		}
		switch {
		case in.DurationMinutes == nil:
			p.ps.add(it, "duration_minutes", "missing; want the length in minutes")
		case *in.DurationMinutes < 1 || *in.DurationMinutes > 24*60:
			p.ps.add(it, "duration_minutes", "must be 1 to 1440")
		}
		switch {
		case in.PriceMinor == nil:
			p.ps.add(it, "price_minor", "missing; want the price in minor units")
		case *in.PriceMinor < 0:
			p.ps.add(it, "price_minor", "must not be negative")
		}
		p.venueCurrency(it, "currency", in.Currency)
		if in.Active != nil {
			s.active = *in.Active
		}
		if in.Listed != nil {
			s.listed = *in.Listed
		}
		if in.AcceptsInquiries != nil {
			s.inquires = *in.AcceptsInquiries
		}
		p.services = append(p.services, s)
	}
}

// assignServiceSlugs gives every service a slug unique within the venue,
// as brands and pass types get theirs.
func (p *plan) assignServiceSlugs(ctx context.Context, c *ent.Client) error {
	rows, err := c.Service.Query().Select(service.FieldID, service.FieldSlug).All(ctx)
	if err != nil {
		return fmt.Errorf("read service slugs: %w", err)
	}
	taken := make(map[string]uuid.UUID, len(rows))
	for _, r := range rows {
		taken[r.Slug] = r.ID
	}
	items := make([]slugItem, len(p.services))
	for i, s := range p.services {
		items[i] = slugItem{it: s.it, id: s.id, given: s.in.Slug, name: s.in.Name, out: &s.slug}
	}
	p.slugs(items, taken, "service")
	return nil
}

func (p *plan) writeServices(ctx context.Context, c *ent.Client) error {
	var creates []*ent.ServiceCreate
	for _, s := range p.services {
		fill := func(m *ent.ServiceMutation) {
			m.SetImportRef(s.in.Ref)
			m.SetName(s.in.Name)
			m.SetSlug(s.slug)
			text(s.in.Description, m.SetDescription, m.ClearDescription)
			text(s.in.Category, m.SetCategory, m.ClearCategory)
			m.SetDurationMinutes(*s.in.DurationMinutes)
			m.SetPriceMinor(*s.in.PriceMinor)
			m.SetCurrency(s.in.Currency)
			m.SetIsActive(s.active)
			m.SetListed(s.listed)
			m.SetAcceptsInquiries(s.inquires)
			text(s.in.ImageURL, m.SetImageURL, m.ClearImageURL)
			m.SetSortOrder(sortOrder(s.in.SortOrder))
		}
		if s.ex == nil {
			sc := c.Service.Create().SetID(s.id)
			fill(sc.Mutation())
			creates = append(creates, sc)
			continue
		}
		su := c.Service.Update().Where(service.ID(s.id))
		fill(su.Mutation())
		if err := su.Exec(ctx); err != nil {
			return fmt.Errorf("update service %q: %w", s.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.ServiceCreate) error {
		return c.Service.CreateBulk(bs...).Exec(ctx)
	})
}
