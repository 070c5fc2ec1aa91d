package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/venueplatform/venue/internal/identity/password"
)

// MembersPerVenue is how many members of a venue the Bearer ops sign in:
// members with bookings, whose own reads the ops spread over.
const MembersPerVenue = 128

// benchPassword is the password the tool gives the members it signs in.
const benchPassword = "bench-member-password"

// signInMembers gives MembersPerVenue members with bookings of each venue of
// ds a known password (the seeded accounts have none) and signs them in
// through the service's own POST /auth/login, filling Venue.Tokens. Access
// tokens live 15 minutes: a run whose Bearer ops last longer gets 401s.
func signInMembers(ctx context.Context, ds *DataSet, client *http.Client) error {
	h, err := password.NewHasher(password.DefaultParams, 1)
	if err != nil {
		return err
	}
	hash, err := h.Hash(ctx, benchPassword)
	if err != nil {
		return err
	}
	for i := range ds.Venues {
		v := &ds.Venues[i]
		rows, err := ds.Pool.Query(ctx, `
			SELECT u.id, u.email FROM members m JOIN users u ON u.id = m.user_id
			WHERE m.organization_id = $1 AND m.role = 'member'
			  AND EXISTS (SELECT 1 FROM bookings b WHERE b.member_id = m.id)
			ORDER BY m.id LIMIT $2`, v.ID, MembersPerVenue)
		if err != nil {
			return fmt.Errorf("members to sign in: %w", err)
		}
		type person struct {
			id    uuid.UUID
			email string
		}
		people, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (person, error) {
			var p person
			return p, r.Scan(&p.id, &p.email)
		})
		if err != nil {
			return fmt.Errorf("members to sign in: %w", err)
		}
		if len(people) == 0 {
			return fmt.Errorf("data set %s: venue %s has no members with bookings", ds.Name, v.Slug)
		}
		ids := make([]uuid.UUID, len(people))
		for k, p := range people {
			ids[k] = p.id
		}
		if _, err := ds.Pool.Exec(ctx, `UPDATE users SET password_hash = $1, account_state = 'active' WHERE id = ANY($2)`, hash, ids); err != nil {
			return fmt.Errorf("member passwords: %w", err)
		}
		v.Tokens = v.Tokens[:0]
		for k, p := range people {
			tok, err := login(ctx, client, ds.ServiceURL, p.email, clientAddr(uint64(SimulatedClients-1-k)))
			if err != nil {
				return fmt.Errorf("data set %s: sign in %s: %w", ds.Name, p.email, err)
			}
			v.Tokens = append(v.Tokens, tok)
		}
	}
	return nil
}

// login signs email in with benchPassword and returns the access token.
func login(ctx context.Context, client *http.Client, base, email, from string) (string, error) {
	body, _ := json.Marshal(map[string]string{"email": email, "password": benchPassword})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/v1/auth/login", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", from)
	res, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d: %s", res.StatusCode, clip(b, 200))
	}
	var out struct {
		Data struct {
			AccessToken string `json:"access_token"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Data.AccessToken == "" {
		return "", fmt.Errorf("no access token: %s", clip(b, 200))
	}
	return out.Data.AccessToken, nil
}

// bookingsPath returns request n of the member's own bookings list: the
// first page (20) of one venue's bookings.
func bookingsPath(ds *DataSet, _ uint64) (string, *Venue) {
	v := firstVenue(ds)
	return "/api/v1/bookings?organization_id=" + url.QueryEscape(v.ID.String()) + "&limit=20", v
}
