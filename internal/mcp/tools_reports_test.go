package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestSalesSnapshotTool drives get_sales_snapshot with the official Go SDK:
// its cash totals of today are get_revenue_summary's (both sum the succeeded
// payments paid today), with each currency's exponent; a bad range is
// -32602, another venue's brand -32005, a key without read:reports -32002;
// every call leaves its audit entry.
func TestSalesSnapshotTool(t *testing.T) {
	f := newFixture(t, 1000)
	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "venue-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{
		Endpoint:   f.url,
		HTTPClient: &http.Client{Transport: keyTransport{f.keys["reads"]}},
		MaxRetries: -1,
	}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-03-26"})
	require.NoError(t, err)
	defer cs.Close()
	call := func(name string, args map[string]any, out any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err, name)
		require.False(t, res.IsError, name)
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), out))
	}
	type total struct {
		Currency    string  `json:"currency"`
		Exponent    int     `json:"exponent"`
		AmountMinor int64   `json:"amount_minor"`
		Amount      float64 `json:"amount"`
		Payments    int64   `json:"payments"`
	}
	var snap struct {
		Range, From, To, Basis string
		Totals                 []total `json:"totals"`
	}
	call(mcptools.GetSalesSnapshotName, map[string]any{}, &snap)
	var rev struct {
		Totals []total `json:"totals"`
	}
	call(mcptools.GetRevenueSummaryName, map[string]any{"period": "today"}, &rev)
	require.NotEmpty(t, rev.Totals)
	require.Equal(t, "today", snap.Range)
	require.Equal(t, f.today.Format(day), snap.From)
	require.Equal(t, "cash", snap.Basis)
	require.Len(t, snap.Totals, len(rev.Totals))
	for i, r := range rev.Totals {
		s := snap.Totals[i]
		require.Equal(t, r.Currency, s.Currency)
		require.Equal(t, r.AmountMinor, s.AmountMinor, r.Currency)
		require.Equal(t, r.Payments, s.Payments, r.Currency)
		require.InDelta(t, r.Amount, s.Amount, 1e-9)
		require.Equal(t, 2, s.Exponent, r.Currency)
	}

	// A custom range without its dates, another venue's brand, a key without the scope.
	code, _ := f.errorOf(f.keys["reads"], "tools/call", map[string]any{"name": mcptools.GetSalesSnapshotName,
		"arguments": map[string]any{"range": "custom", "from": f.today.Format(day)}})
	require.Equal(t, mcp.CodeInvalidParams, code)
	code, _ = f.errorOf(f.keys["reads"], "tools/call", map[string]any{"name": mcptools.GetSalesSnapshotName,
		"arguments": map[string]any{"methods": []string{"bitcoin"}}})
	require.Equal(t, mcp.CodeInvalidParams, code)
	theirs := f.client.Brand.Create().SetName("Theirs").SetSlug("theirs").SaveX(viewer.NewContext(ctx, viewer.Operator{Org: f.other, Name: "test"}))
	code, _ = f.errorOf(f.keys["reads"], "tools/call", map[string]any{"name": mcptools.GetSalesSnapshotName,
		"arguments": map[string]any{"brand_id": theirs.ID.String()}})
	require.Equal(t, mcp.CodeNotFound, code)
	code, _ = f.errorOf(f.keys["schedule"], "tools/call", map[string]any{"name": mcptools.GetSalesSnapshotName, "arguments": map[string]any{}})
	require.Equal(t, mcp.CodeForbidden, code)

	f.flushAudit()
	rows, err := f.client.AuditLog.Query().Where(auditlog.Target(mcptools.GetSalesSnapshotName)).All(f.operatorCtx())
	require.NoError(t, err)
	require.Len(t, rows, 5)
	outcomes := map[auditlog.Outcome]int{}
	for _, r := range rows {
		outcomes[r.Outcome]++
	}
	require.Equal(t, map[auditlog.Outcome]int{auditlog.OutcomeSuccess: 1, auditlog.OutcomeFailure: 3, auditlog.OutcomeDenied: 1}, outcomes)
}
