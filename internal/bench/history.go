package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/identity/password"
	"github.com/venueplatform/venue/internal/pos"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
	"github.com/venueplatform/venue/internal/webhooks/manage"
)

// The history ops read two venue logs that grow with a venue's life rather
// than with its members: a webhook subscription's delivery history
// (members-webhook-deliveries, over HTTP as staff) and the audit trail
// (members-audit-list, the domain call of `venuectl audit list`, in
// process). The seed writes neither, so the data step writes
// HistoryPerMember rows of each per member of the venue.

// HistoryPerMember is how many deliveries and audit entries the data step
// writes per member: a venue of 1,000,000 members gets 1,000,000 of each.
const HistoryPerMember = 1

// StaffPerVenue is how many staff members (settings.business, which manages
// webhooks) of each venue the staff ops sign in: the service limits
// requests per user, as for the members of the Bearer ops.
const StaffPerVenue = 128

// tokenRefreshAfter is the age at which the tool signs its members and staff
// in again before a step: access tokens live 15 minutes.
const tokenRefreshAfter = 10 * time.Minute

// benchSubscription is the description of the subscription the data step
// writes (and finds again when the data set is reused).
const benchSubscription = "bench delivery history"

// AuditListLimit is the page the audit op reads: `venuectl audit list`'s
// default.
const AuditListLimit = 50

// prepareHistory writes the venue's subscription, its deliveries (with
// their events) and its audit entries, HistoryPerMember per member, unless
// a reused data set has them already, and fills Venue.SubscriptionID.
func prepareHistory(ctx context.Context, ds *DataSet) error {
	wrote := false
	for i := range ds.Venues {
		v := &ds.Venues[i]
		err := ds.Pool.QueryRow(ctx, `SELECT id FROM webhook_subscriptions WHERE organization_id = $1 AND description = $2`,
			v.ID, benchSubscription).Scan(&v.SubscriptionID)
		if errors.Is(err, pgx.ErrNoRows) {
			err, wrote = writeHistory(ctx, ds, v), true
		}
		if err != nil {
			return fmt.Errorf("history of %s: %w", v.Slug, err)
		}
	}
	if !wrote {
		return nil
	}
	for _, t := range []string{"events", "webhook_deliveries", "audit_logs"} {
		if _, err := ds.Pool.Exec(ctx, "ANALYZE "+t); err != nil {
			return fmt.Errorf("analyze %s: %w", t, err)
		}
	}
	return nil
}

// writeHistory writes v's subscription, deliveries and audit entries in one
// transaction: a run stopped half way leaves no subscription, so the next
// run writes the whole history again.
func writeHistory(ctx context.Context, ds *DataSet, v *Venue) error {
	var members int
	if err := ds.Pool.QueryRow(ctx, `SELECT count(*) FROM members WHERE organization_id = $1`, v.ID).Scan(&members); err != nil {
		return fmt.Errorf("members: %w", err)
	}
	n := members * HistoryPerMember
	v.SubscriptionID = uuid.New()
	tx, err := ds.Pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	steps := []struct {
		what, sql string
		args      []any
	}{
		{"subscription", `INSERT INTO webhook_subscriptions (id, created_at, updated_at, url, description, event_types, secret, enabled, created_by, organization_id)
			VALUES ($1, now(), now(), 'https://hooks.bench.example/venue', $3, '["booking.created"]', 'whsec_YmVuY2g=', true, 'bench', $2)`,
			[]any{v.SubscriptionID, v.ID, benchSubscription}},
		// Events one second apart, newest now, already dispatched, and
		// one delivered delivery of each.
		{"deliveries", `WITH e AS (
				INSERT INTO events (id, created_at, updated_at, type, payload, delivered_at, organization_id)
				SELECT gen_random_uuid(), t, t, 'booking.created', '{}', t, $2
				FROM generate_series(1, $3::int) g, LATERAL (SELECT now() - g * interval '1 second' AS t) s
				RETURNING id, created_at, type)
			INSERT INTO webhook_deliveries (id, created_at, updated_at, event_type, message_id, status, attempts, last_status_code, delivered_at, organization_id, subscription_id, event_id)
			SELECT gen_random_uuid(), e.created_at, e.created_at, e.type, 'msg_' || e.id, 'delivered', 1, 200, e.created_at, $2, $1, e.id FROM e`,
			[]any{v.SubscriptionID, v.ID, n}},
		{"audit entries", `INSERT INTO audit_logs (id, created_at, updated_at, actor, actor_kind, action, target, outcome, organization_id)
			SELECT gen_random_uuid(), t, t, 'bench', 'operator', 'member.update', 'member:' || g, 'success', $1
			FROM generate_series(1, $2::int) g, LATERAL (SELECT now() - g * interval '1 second' AS t) s`,
			[]any{v.ID, n}},
	}
	for _, s := range steps {
		if _, err := tx.Exec(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
	}
	return tx.Commit(ctx)
}

// signInStaff makes StaffPerVenue members of each venue of ds (at most a
// quarter of them; members without bookings first, from the other end of
// the ids than signInMembers, so the members' ops are not touched) staff holding
// manage.PermissionManage and the desk's pos.access, pos.sell and products.manage_inventory with a known password, signs them in through
// POST /auth/login and selects the venue (POST /me/active-organization),
// filling Venue.StaffTokens.
func signInStaff(ctx context.Context, ds *DataSet, client *http.Client) error {
	h, err := password.NewHasher(password.DefaultParams, 1)
	if err != nil {
		return err
	}
	hash, err := h.Hash(ctx, benchPassword)
	if err != nil {
		return err
	}
	perms, _ := json.Marshal([]string{manage.PermissionManage, pos.PermAccess, pos.PermSell, pos.PermInventory})
	for i := range ds.Venues {
		v := &ds.Venues[i]
		rows, err := ds.Pool.Query(ctx, `
			UPDATE members SET role = 'staff', permissions = $3 WHERE id IN (
				SELECT m.id FROM members m WHERE m.organization_id = $1 AND m.role IN ('member', 'staff')
				ORDER BY EXISTS (SELECT 1 FROM bookings b WHERE b.member_id = m.id), m.id DESC
				LIMIT LEAST($2, GREATEST(1, (SELECT count(*) FROM members WHERE organization_id = $1) / 4)))
			RETURNING user_id`, v.ID, StaffPerVenue, perms)
		if err != nil {
			return fmt.Errorf("staff: %w", err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		if err != nil {
			return fmt.Errorf("staff: %w", err)
		}
		if len(ids) == 0 {
			return fmt.Errorf("data set %s: venue %s has no members", ds.Name, v.Slug)
		}
		rows, err = ds.Pool.Query(ctx, `UPDATE users SET password_hash = $1, account_state = 'active' WHERE id = ANY($2) RETURNING email`, hash, ids)
		if err != nil {
			return fmt.Errorf("staff passwords: %w", err)
		}
		emails, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("staff passwords: %w", err)
		}
		v.StaffTokens = v.StaffTokens[:0]
		for k, email := range emails {
			from := clientAddr(uint64(SimulatedClients - 1 - MembersPerVenue - k))
			tok, err := login(ctx, client, ds.ServiceURL, email, from)
			if err != nil {
				return fmt.Errorf("data set %s: sign in staff %s: %w", ds.Name, email, err)
			}
			if err := selectVenue(ctx, client, ds.ServiceURL, tok, v.ID, from); err != nil {
				return fmt.Errorf("data set %s: staff %s: %w", ds.Name, email, err)
			}
			v.StaffTokens = append(v.StaffTokens, tok)
		}
	}
	return nil
}

// selectVenue makes the session of tok act in org.
func selectVenue(ctx context.Context, client *http.Client, base, tok string, org uuid.UUID, from string) error {
	body, _ := json.Marshal(map[string]string{"organization_id": org.String()})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/v1/me/active-organization", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("X-Forwarded-For", from)
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("active organization: status %d: %s", res.StatusCode, clip(b.Bytes(), 200))
	}
	return nil
}

// signIn signs the set's members (Bearer ops) and staff (Staff ops) in,
// and notes when, so that steps can sign in again before tokens expire.
func signIn(ctx context.Context, ds *DataSet, members, staff bool, timeout time.Duration) error {
	hc := NewClient(1, timeout)
	defer hc.CloseIdleConnections()
	if members {
		if err := signInMembers(ctx, ds, hc); err != nil {
			return err
		}
	}
	if staff {
		if err := signInStaff(ctx, ds, hc); err != nil {
			return err
		}
	}
	ds.signedIn = time.Now()
	ds.refresh = func(ctx context.Context) error { return signIn(ctx, ds, members, staff, timeout) }
	return nil
}

// refreshTokens signs ds in again when its tokens are near expiry.
func refreshTokens(ctx context.Context, ds *DataSet) error {
	if ds.refresh == nil || time.Since(ds.signedIn) < tokenRefreshAfter {
		return nil
	}
	return ds.refresh(ctx)
}

// deliveriesPath returns request n of the delivery history: the first
// page (20) of the venue's subscription, or one request in four the second
// page, by the cursor of a first page read when the set was prepared.
func deliveriesPath(ds *DataSet, n uint64) (string, *Venue) {
	v := firstVenue(ds)
	p := "/api/v1/admin/webhooks/" + v.SubscriptionID.String() + "/deliveries?limit=20"
	if v.DeliveriesCursor != "" && mix(n^0x3c6ef372)%4 == 0 {
		p += "&after=" + url.QueryEscape(v.DeliveriesCursor)
	}
	return p, v
}

// readCursor reads the first page of each venue's delivery history as
// staff and keeps its next cursor for deliveriesPath.
func readCursor(ctx context.Context, ds *DataSet, timeout time.Duration) error {
	hc := NewClient(1, timeout)
	defer hc.CloseIdleConnections()
	for i := range ds.Venues {
		v := &ds.Venues[i]
		if len(v.StaffTokens) == 0 {
			continue
		}
		p, _ := deliveriesPath(ds, 1)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, ds.ServiceURL+p, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+v.StaffTokens[0])
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		var out struct {
			Meta struct {
				NextCursor *string `json:"next_cursor"`
			} `json:"meta"`
		}
		err = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK {
			return fmt.Errorf("data set %s: delivery history: status %d", ds.Name, res.StatusCode)
		}
		if out.Meta.NextCursor != nil {
			v.DeliveriesCursor = *out.Meta.NextCursor
		}
	}
	return nil
}

// auditHandler serves the audit op in process: GET /audit?venue=<id> calls
// audit.List as `venuectl audit list` does (the CLI's operator elevation
// in the venue, AuditListLimit entries) and writes the entries as JSON.
// It is not the service's HTTP stack: there is no HTTP read of the trail.
func auditHandler(client *ent.Client) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		org, err := uuid.Parse(r.URL.Query().Get("venue"))
		if err != nil {
			http.Error(w, "venue", http.StatusBadRequest)
			return
		}
		vctx := system.Elevate(r.Context(), "venuectl.operator", viewer.Operator{Org: org, Name: "bench"})
		rows, err := audit.List(vctx, client, AuditListLimit)
		if err != nil {
			http.Error(w, "list", http.StatusInternalServerError)
			return
		}
		type item struct {
			ID      string         `json:"id"`
			At      string         `json:"at"`
			Actor   string         `json:"actor"`
			Action  string         `json:"action"`
			Target  string         `json:"target"`
			Outcome string         `json:"outcome"`
			Details map[string]any `json:"details"`
		}
		out := make([]item, len(rows))
		for i, e := range rows {
			out[i] = item{ID: e.ID.String(), At: e.CreatedAt.UTC().Format(time.RFC3339Nano), Actor: e.Actor,
				Action: e.Action, Target: e.Target, Outcome: string(e.Outcome), Details: e.Details}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"data": out})
	})
}

// startAudit serves auditHandler on ds's pool on a loopback port.
func startAudit(ds *DataSet) (*listener, error) {
	return serve(auditHandler(db.NewClient(ds.Pool)))
}

// auditPath is request n of the audit op: the venue's newest entries.
func auditPath(ds *DataSet, _ uint64) (string, *Venue) {
	v := firstVenue(ds)
	return "/audit?venue=" + v.ID.String(), v
}

func init() {
	goals := []Goal{{Kind: GoalScaleP99, Limit: 2}, {Kind: GoalPlatformP99, Limit: 1.3}}
	Register(&Op{
		Name: "members-webhook-deliveries",
		Help: "GET /api/v1/admin/webhooks/{id}/deliveries as staff (settings.business): the first page, one request in four the second by cursor; " +
			"one delivery per member, on each --member-scales venue",
		Family:  FamilyMembers,
		Staff:   true,
		Request: deliveriesPath,
		Check:   checkNonEmptyData,
		Goals:   goals,
	})
	Register(&Op{
		Name:    "members-audit-list",
		Help:    "audit.List as `venuectl audit list` calls it (in process, not the service's HTTP stack): the newest 50 of one audit entry per member, on each --member-scales venue",
		Family:  FamilyMembers,
		Local:   true,
		Request: auditPath,
		Check:   checkNonEmptyData,
		Goals:   goals,
	})
}
