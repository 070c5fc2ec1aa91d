package mcp_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/ratelimit"
)

// TestQueuedAuditEntriesWrittenAtClose: the entries of read-only calls that
// are still queued when the endpoint closes are all written by Close, one
// per call, with the call's key, issuing staff member, tool, digest of the
// arguments and outcome.
func TestQueuedAuditEntriesWrittenAtClose(t *testing.T) {
	f := newFixture(t, 1000)
	// An interval longer than the test: only Close writes the entries.
	w := audit.NewWriter(f.client, audit.WriterOptions{Interval: time.Hour, MaxBatch: 1000})
	h := mcp.NewHandler(f.client, auth.New(f.client), ratelimit.New(f.pool, 1000, time.Minute), nil, mcp.WithAuditWriter(w))
	srv := httptest.NewServer(h)
	defer srv.Close()
	f.url = srv.URL

	const n = 25
	for range n {
		f.tool(f.keys["all"], mcptools.SearchScheduleName, map[string]any{"date": f.today.Format(day)})
	}
	f.errorOf(f.keys["all"], "tools/call", map[string]any{"name": mcptools.CheckAvailabilityName,
		"arguments": map[string]any{"class_instance_id": f.otherClass.String()}})
	ctx := f.operatorCtx()
	queued, err := f.client.AuditLog.Query().Count(ctx)
	require.NoError(t, err)
	require.Zero(t, queued, "nothing written before Close")

	require.NoError(t, h.Close(context.Background()))
	rows, err := f.client.AuditLog.Query().Where(auditlog.Action(mcp.AuditAction)).All(ctx)
	require.NoError(t, err)
	require.Len(t, rows, n+1)
	k, err := apikey.Lookup(context.Background(), f.client, f.keys["all"])
	require.NoError(t, err)
	sum := sha256.Sum256([]byte(`{"date":"` + f.today.Format(day) + `"}`))
	outcomes := map[auditlog.Outcome]int{}
	for _, e := range rows {
		outcomes[e.Outcome]++
		require.Equal(t, f.org, e.OrganizationID)
		require.Equal(t, k.ID, *e.APIKeyID)
		require.Equal(t, k.CreatedByUserID, e.UserID)
		require.Equal(t, "api_key:"+k.ID.String(), e.Actor)
		require.Equal(t, "owner@hot-yoga.test", e.Details["created_by"])
		if e.Outcome == auditlog.OutcomeSuccess {
			require.Equal(t, mcptools.SearchScheduleName, e.Target)
			require.Equal(t, hex.EncodeToString(sum[:]), e.Details["arguments_sha256"])
		} else {
			require.Equal(t, mcptools.CheckAvailabilityName, e.Target)
			require.EqualValues(t, mcp.CodeNotFound, e.Details["error_code"])
		}
	}
	require.Equal(t, map[auditlog.Outcome]int{auditlog.OutcomeSuccess: n, auditlog.OutcomeFailure: 1}, outcomes)

	// A call answered after Close still leaves its entry, written at once.
	f.tool(f.keys["all"], mcptools.SearchScheduleName, map[string]any{"date": f.today.Format(day)})
	count, err := f.client.AuditLog.Query().Where(auditlog.Action(mcp.AuditAction)).Count(ctx)
	require.NoError(t, err)
	require.Equal(t, n+2, count)
}

// TestFailedWriteKeepsNoSuccessEntry: a write tool's success entry commits
// in the transaction of its change, so a change that fails leaves no success
// entry and no change; the call is recorded as a failure instead, like
// every refused call.
func TestFailedWriteKeepsNoSuccessEntry(t *testing.T) {
	f := newFixture(t, 1000)
	args := f.flashSaleArgs()
	args["applicable_pass_type_ids"] = []string{f.otherPassType.String()}
	code, _ := f.errorOf(f.keys["all"], "tools/call", map[string]any{"name": mcptools.CreateFlashSaleName, "arguments": args})
	require.Equal(t, mcp.CodeNotFound, code)
	f.flushAudit()

	ctx := f.operatorCtx()
	sales, err := f.client.FlashSale.Query().Count(ctx)
	require.NoError(t, err)
	require.Zero(t, sales)
	rows, err := f.client.AuditLog.Query().Where(auditlog.Target(mcptools.CreateFlashSaleName)).All(ctx)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.Equal(t, auditlog.OutcomeFailure, rows[0].Outcome)
	require.EqualValues(t, mcp.CodeNotFound, rows[0].Details["error_code"])
	require.NotContains(t, rows[0].Details, "flash_sale_id")

	// The same call with valid arguments commits the sale and its entry
	// together, written before the answer (not queued).
	out := f.tool(f.keys["all"], mcptools.CreateFlashSaleName, f.flashSaleArgs())
	rows, err = f.client.AuditLog.Query().Where(auditlog.Target(mcptools.CreateFlashSaleName),
		auditlog.OutcomeEQ(auditlog.OutcomeSuccess)).All(ctx)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.Equal(t, out["id"], rows[0].Details["flash_sale_id"])
}
