package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/accounts"
	appconfig "github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// account is the venue's connected account at the fake Stripe.
const account = "acct_crash"

// seeded is the venue the load buys in.
type seeded struct {
	org    uuid.UUID
	tokens []string // one member's access token per purchase
}

func seedVenue(ctx context.Context, dbURL string, c config, signing string) (*seeded, error) {
	pool, err := db.Open(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	client := db.NewClient(pool)
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Crash Studio", Slug: "crash-studio"})
	if err != nil {
		return nil, err
	}
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "crashtest"})
	client.VenuePayments.Create().SetAccountID(account).SetChargesEnabled(true).SaveX(op)
	client.PassType.Create().SetName("10-clip card").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(120000).SetCurrency("DKK").SetClips(10).SaveX(op)
	acfg, err := accounts.ConfigFrom(appconfig.Tokens{SigningKey: signing}, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	acct, err := accounts.New(client, acfg)
	if err != nil {
		return nil, err
	}
	s := &seeded{org: v.ID}
	for i := range c.purchases {
		en, err := members.Enroll(op, client, members.EnrollParams{Email: fmt.Sprintf("m%d@crash.example", i), FirstName: "M"})
		if err != nil {
			return nil, err
		}
		tok, _, err := acct.Tokens().Issue(token.Claims{Subject: en.User.ID.String(), SessionID: uuid.NewString()})
		if err != nil {
			return nil, err
		}
		s.tokens = append(s.tokens, tok)
	}
	return s, nil
}
