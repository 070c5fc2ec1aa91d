package main

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/secretbox"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
	"github.com/venueplatform/venue/internal/webhooks/signature"
)

// seeded is the venue the load books in.
type seeded struct {
	org     uuid.UUID
	keys    []string // 50 requests per key: keys are limited to 100 requests a minute
	secret  string
	pairs   [][2]uuid.UUID // member, class
	classes int
}

func seedVenue(ctx context.Context, dbURL string, c config, rcv *receiver, sealKey []byte) (*seeded, error) {
	pool, err := db.Open(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	client := db.NewClient(pool)
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Crash Studio", Slug: "crash-studio", APIEnabled: true})
	if err != nil {
		return nil, err
	}
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "crashtest"})
	s := &seeded{org: v.ID, classes: c.classes}
	if _, err := members.Enroll(op, client, members.EnrollParams{Email: "desk@crash.example", Role: "staff"}); err != nil {
		return nil, err
	}
	for i := 0; i < c.bookings; i += 50 {
		key, err := apikey.Create(op, client, apikey.CreateParams{Name: fmt.Sprintf("load-%d", i), CreatedBy: "desk@crash.example",
			Scopes: []string{scope.WriteSchedule, scope.ReadBookings}})
		if err != nil {
			return nil, err
		}
		s.keys = append(s.keys, key.Secret)
	}

	br := client.Brand.Create().SetName("Hot").SetSlug("hot").SaveX(op)
	ct := client.ClassType.Create().SetName("Flow").SetBrandID(br.ID).SaveX(op)
	pt := client.PassType.Create().SetName("Many").SetSlug("many").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1000).SetCurrency("DKK").SetClips(1000).SaveX(op)
	start := time.Now().Add(24 * time.Hour).Truncate(time.Hour)
	classes := make([]uuid.UUID, c.classes)
	for i := range classes {
		at := start.Add(time.Duration(i) * time.Hour)
		classes[i] = client.ClassInstance.Create().SetClassTypeID(ct.ID).SetStartTime(at).
			SetEndTime(at.Add(time.Hour)).SetCapacity(25).SaveX(op).ID
	}
	nMembers := (c.bookings + c.classes - 1) / c.classes
	for m := range nMembers {
		en, err := members.Enroll(op, client, members.EnrollParams{Email: fmt.Sprintf("m%d@crash.example", m), FirstName: "M"})
		if err != nil {
			return nil, err
		}
		clips := 1000
		client.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(pt.ID).
			SetValidFrom(time.Now().AddDate(0, 0, -1)).SetClipsRemaining(clips).SaveX(op)
		for _, cl := range classes {
			if len(s.pairs) < c.bookings {
				s.pairs = append(s.pairs, [2]uuid.UUID{en.Member.ID, cl})
			}
		}
	}
	if s.secret, err = signature.NewSecret(); err != nil {
		return nil, err
	}
	// Stored sealed with the key the server is given (secretbox), as the API stores it.
	box, err := secretbox.New(secretbox.FormatWebhook, sealKey)
	if err != nil {
		return nil, err
	}
	id := uuid.New()
	stored, err := box.Seal(s.secret, id.String())
	if err != nil {
		return nil, err
	}
	client.WebhookSubscription.Create().SetID(id).SetURL(rcv.URL + "/hooks").SetSecret(stored).
		SetEventTypes([]string{events.BookingCreated, events.BookingWaitlisted}).SaveX(op)
	return s, nil
}
