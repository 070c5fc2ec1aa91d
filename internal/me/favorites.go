package me

import (
	"context"
	stdsql "database/sql"
	"errors"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/favoritevenue"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// AddFavorite marks venue org as a favourite of the signed-in user. It is
// idempotent. An unknown venue, or an unlisted one the user has no
// relationship with, is 404.
func (s *Service) AddFavorite(ctx context.Context, org uuid.UUID) error {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return apperr.Unauthorized("a user session is required")
	}
	sctx := system.Allow(ctx, "me.favorites")
	o, err := s.client.Organization.Query().Where(organization.ID(org)).Only(sctx)
	if ent.IsNotFound(err) {
		return apperr.NotFound("venue")
	}
	if err != nil {
		return err
	}
	if !o.Listed {
		related, err := s.client.Member.Query().Where(member.OrganizationID(org), member.UserID(u.UserID)).Exist(sctx)
		if err != nil {
			return err
		}
		if !related {
			return apperr.NotFound("venue")
		}
	}
	err = s.client.FavoriteVenue.Create().SetUserID(u.UserID).SetVenueID(org).
		OnConflict(sql.ConflictColumns(favoritevenue.FieldUserID, favoritevenue.FieldVenueID)).
		DoNothing().Exec(sctx)
	if err != nil && !errors.Is(err, stdsql.ErrNoRows) {
		return err
	}
	return nil
}

// RemoveFavorite removes venue org from the signed-in user's favourites,
// whether or not it was one.
func (s *Service) RemoveFavorite(ctx context.Context, org uuid.UUID) error {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return apperr.Unauthorized("a user session is required")
	}
	_, err := s.client.FavoriteVenue.Delete().
		Where(favoritevenue.UserID(u.UserID), favoritevenue.VenueID(org)).Exec(ctx)
	return err
}
