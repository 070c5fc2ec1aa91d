package members

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// batch bounds the rows of one query or bulk insert.
const batch = 1000

// ErrNoVenue means the context carries no venue viewer.
var ErrNoVenue = errors.New("members: no venue viewer in context")

// EnrollParams describes a person to enrol in the viewer's venue.
type EnrollParams struct {
	Email     string
	FirstName string
	LastName  string
	Phone     string
	// Role is member, staff or owner; empty keeps an existing member's role.
	Role string
	// Permissions of staff; nil keeps the existing ones.
	Permissions []string
	// ClientDisplayID is the venue's own client number; empty keeps it.
	ClientDisplayID string
	// JoinedAt is when the person joined the venue; zero keeps it.
	JoinedAt time.Time
	// ImportRef is the person's id in a source system (import-format.md).
	ImportRef string
	// Status is active, inactive or blocked; empty keeps it (new: active).
	Status string
	// AccountState is the state of a user created now; empty means
	// password_never_used.
	AccountState string
}

// Enrolled is the outcome of one enrolment.
type Enrolled struct {
	User          *ent.User
	Member        *ent.Member
	CreatedUser   bool
	CreatedMember bool
}

// ItemError is an invalid EnrollParams of EnrollAll: Index is its position,
// Field its field name.
type ItemError struct {
	Index int
	Field string
	Err   error
}

// Error implements error.
func (e *ItemError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *ItemError) Unwrap() error { return e.Err }

// Enroll enrols one person in the viewer's venue.
func Enroll(ctx context.Context, client *ent.Client, p EnrollParams) (*Enrolled, error) {
	out, err := EnrollAll(ctx, client, []EnrollParams{p})
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// NormalizeEmail trims and lower-cases an email and checks that it is a
// plain address.
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	if e == "" {
		return "", errors.New("email is empty")
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || len(e) > 320 {
		return "", fmt.Errorf("invalid email %q", email)
	}
	return e, nil
}

// validate normalises ps in place and checks every field.
func validate(ps []EnrollParams) error {
	seen := make(map[string]int, len(ps))
	for i := range ps {
		p := &ps[i]
		email, err := NormalizeEmail(p.Email)
		if err != nil {
			return &ItemError{i, "email", err}
		}
		if j, dup := seen[email]; dup {
			return &ItemError{i, "email", fmt.Errorf("email %q given twice (also item %d)", email, j)}
		}
		seen[email] = i
		p.Email = email
		if p.Role != "" {
			if err := member.RoleValidator(member.Role(p.Role)); err != nil {
				return &ItemError{i, "role", fmt.Errorf("unknown role %q (want member, staff or owner)", p.Role)}
			}
		}
		if p.Status != "" {
			if err := member.StatusValidator(member.Status(p.Status)); err != nil {
				return &ItemError{i, "status", fmt.Errorf("unknown status %q (want active, inactive or blocked)", p.Status)}
			}
		}
		if p.AccountState == "" {
			p.AccountState = string(user.AccountStatePasswordNeverUsed)
		}
		if err := user.AccountStateValidator(user.AccountState(p.AccountState)); err != nil {
			return &ItemError{i, "account_state", fmt.Errorf("unknown account state %q", p.AccountState)}
		}
		if p.Permissions != nil {
			perms, err := scope.ParsePermissions(strings.Join(p.Permissions, ","))
			if err != nil {
				return &ItemError{i, "permissions", err}
			}
			p.Permissions = perms
		}
		if len(p.FirstName) > 100 || len(p.LastName) > 100 {
			return &ItemError{i, "first_name", errors.New("names are limited to 100 characters")}
		}
		if len(p.ClientDisplayID) > 64 {
			return &ItemError{i, "client_display_id", errors.New("longer than 64 characters")}
		}
	}
	return nil
}

// EnrollAll enrols many people in the viewer's venue; the result is in the
// order of ps. It is all-or-nothing: it runs in a transaction of its own, or
// in the caller's when client is transactional.
func EnrollAll(ctx context.Context, client *ent.Client, ps []EnrollParams) ([]Enrolled, error) {
	org, ok := viewer.VenueFromContext(ctx)
	if !ok {
		return nil, ErrNoVenue
	}
	ps = slices.Clone(ps)
	if err := validate(ps); err != nil {
		return nil, err
	}
	// System call site: a person is found or created by email across the
	// platform, and linked to the viewer's venue by a new Member row, before
	// the venue can see them. The Member row gets the viewer's venue.
	sctx := system.Allow(ctx, "members.enroll")
	out := make([]Enrolled, len(ps))
	err := withTx(ctx, client, func(c *ent.Client) error {
		if err := findOrCreateUsers(sctx, c, ps, out); err != nil {
			return err
		}
		return upsertMembers(ctx, sctx, c, org, ps, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// withTx runs fn in a transaction, or in the caller's when client is
// already transactional.
func withTx(ctx context.Context, client *ent.Client, fn func(*ent.Client) error) error {
	tx, err := client.Tx(ctx)
	if errors.Is(err, ent.ErrTxStarted) {
		return fn(client)
	}
	if err != nil {
		return fmt.Errorf("members: begin: %w", err)
	}
	if err := fn(tx.Client()); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func findOrCreateUsers(sctx context.Context, client *ent.Client, ps []EnrollParams, out []Enrolled) error {
	byEmail := make(map[string]*ent.User, len(ps))
	for start := 0; start < len(ps); start += batch {
		chunk := ps[start:min(start+batch, len(ps))]
		emails := make([]string, len(chunk))
		for i, p := range chunk {
			emails[i] = p.Email
		}
		ids, err := userIDsByEmail(sctx, client, emails)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			continue
		}
		users, err := client.User.Query().Where(user.IDIn(ids...)).All(sctx)
		if err != nil {
			return fmt.Errorf("find users: %w", err)
		}
		for _, u := range users {
			byEmail[u.Email] = u
		}
	}
	var creates []*ent.UserCreate
	var createdIdx []int
	for i, p := range ps {
		u, ok := byEmail[p.Email]
		if !ok {
			creates = append(creates, client.User.Create().SetID(uuid.New()).
				SetEmail(p.Email).SetFirstName(p.FirstName).SetLastName(p.LastName).
				SetPhone(p.Phone).SetAccountState(user.AccountState(p.AccountState)))
			createdIdx = append(createdIdx, i)
			continue
		}
		out[i].User = u
		if u.AccountState != user.AccountStateImportedUnclaimed ||
			(u.FirstName == p.FirstName && u.LastName == p.LastName && u.Phone == p.Phone) {
			continue
		}
		nu, err := client.User.UpdateOne(u).
			SetFirstName(p.FirstName).SetLastName(p.LastName).SetPhone(p.Phone).Save(sctx)
		if err != nil {
			return &ItemError{i, "email", fmt.Errorf("update user: %w", err)}
		}
		out[i].User = nu
	}
	for start := 0; start < len(creates); start += batch {
		end := min(start+batch, len(creates))
		users, err := client.User.CreateBulk(creates[start:end]...).Save(sctx)
		if err != nil {
			return fmt.Errorf("create users: %w", err)
		}
		for k, u := range users {
			i := createdIdx[start+k]
			out[i].User, out[i].CreatedUser = u, true
		}
	}
	return nil
}

// userIDsByEmail returns the ids of the users with the given emails. Two
// things keep it fast at any size. It joins with the list instead of
// `email IN (...)`, for which PostgreSQL picks the trigram index of member
// search (seconds per thousand emails). And it runs with a custom plan: the
// generic plan of a reused prepared statement cannot see the list's length
// and falls back to that trigram index as well. It must run in a
// transaction (set_config is local to it). It reads users directly, so it
// runs only at the "members.enroll" site, like the queries around it.
func userIDsByEmail(ctx context.Context, client *ent.Client, emails []string) ([]uuid.UUID, error) {
	previous, err := setPlanCacheMode(ctx, client, "force_custom_plan")
	if err != nil {
		return nil, fmt.Errorf("find users: %w", err)
	}
	defer func() { _, _ = setPlanCacheMode(ctx, client, previous) }()
	rows, err := client.QueryContext(system.RawSQL(ctx, "members.emails"),
		`SELECT u.id FROM unnest($1::text[]) AS e(email) JOIN users u ON u.email = e.email`, emails)
	if err != nil {
		return nil, fmt.Errorf("find users: %w", err)
	}
	defer rows.Close()
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("find users: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find users: %w", err)
	}
	return ids, nil
}

// setPlanCacheMode sets plan_cache_mode for the rest of the transaction and
// returns the previous value.
func setPlanCacheMode(ctx context.Context, client *ent.Client, mode string) (string, error) {
	rows, err := client.QueryContext(system.RawSQL(ctx, "members.emails"),
		`SELECT current_setting('plan_cache_mode'), set_config('plan_cache_mode', $1, true)`, mode)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var previous, now string
	if rows.Next() {
		if err := rows.Scan(&previous, &now); err != nil {
			return "", err
		}
	}
	return previous, rows.Err()
}
