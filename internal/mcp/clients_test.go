package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/mcptools"
)

const day = "2006-01-02"

// flashSaleArgs are valid create_flash_sale arguments for the fixture.
func (f *fixture) flashSaleArgs() map[string]any {
	start := time.Now().UTC().Truncate(time.Second).Add(time.Hour)
	return map[string]any{
		"name": "Black Friday intro",
		"commercial_rule": map[string]any{
			"version": 2, "kind": "introductory_price",
			"pricing":                         map[string]any{"mode": "shared", "price": 199},
			"currency":                        "DKK",
			"vatMode":                         "included",
			"waiveRegistrationFeePassTypeIds": []string{f.membership.String()},
			"duration":                        map[string]any{"mode": "until_date", "endsAt": start.AddDate(0, 1, 0).Format(day)},
			"followingPrice":                  map[string]any{"mode": "pass_price"},
		},
		"product_family":           "recurring",
		"applicable_pass_type_ids": []string{f.membership.String()},
		"starts_at":                start.Format(time.RFC3339),
		"ends_at":                  start.Add(72 * time.Hour).Format(time.RFC3339),
		"placements":               []string{"public_link", "pricing_page"},
	}
}

// toolArgs are valid arguments for every tool.
func (f *fixture) toolArgs() map[string]map[string]any {
	return map[string]map[string]any{
		mcptools.SearchScheduleName:    {"date": f.today.Format(day), "class_type": "vinyasa", "instructor": "holm"},
		mcptools.CheckAvailabilityName: {"class_instance_id": f.vinyasaToday.String()},
		mcptools.SearchMembersName:     {"query": "anna berg"},
		mcptools.GetMemberDetailsName:  {"member_id": f.anna.String()},
		mcptools.GetRevenueSummaryName: {"period": "today"},
		mcptools.GetTodayOverviewName:  {},
		mcptools.CreateFlashSaleName:   f.flashSaleArgs(),
		mcptools.GetSalesSnapshotName:  {"range": "7d", "basis": "cash", "methods": []string{"other", "card"}},
		mcptools.GetAttendanceName:     {"range": "7d", "view": "action_date"},
		mcptools.GetBrandAnalyticsName: {"range": "mtd"},
	}
}

// resourceURIs are readable URIs of every resource.
func (f *fixture) resourceURIs() []string {
	return []string{
		"venue://schedule/" + f.today.Format(day),
		"venue://classes/" + f.today.Format(day) + ".." + f.today.AddDate(0, 0, 1).Format(day),
		"venue://members/" + url.PathEscape("anna berg"),
		"venue://member/" + f.anna.String(),
		"venue://passes",
		"venue://bookings/" + f.today.Format(day),
		"venue://revenue/month",
		"venue://alerts",
	}
}

// keyTransport adds the API key to every request.
type keyTransport struct{ key string }

func (k keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-API-Key", k.key)
	return http.DefaultTransport.RoundTrip(r)
}

func toolNames() []string {
	var names []string
	for _, t := range mcptools.Tools {
		names = append(names, t.Name)
	}
	return names
}

// TestOfficialGoSDK drives the endpoint with the official Go SDK client.
func TestOfficialGoSDK(t *testing.T) {
	f := newFixture(t, 1000)
	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "venue-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{
		Endpoint:   f.url,
		HTTPClient: &http.Client{Transport: keyTransport{f.keys["all"]}},
		MaxRetries: -1,
	}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-03-26"})
	require.NoError(t, err)
	defer cs.Close()
	require.Equal(t, "2025-03-26", cs.InitializeResult().ProtocolVersion)
	require.Equal(t, "venue", cs.InitializeResult().ServerInfo.Name)
	require.NoError(t, cs.Ping(ctx, nil))

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		require.NotNil(t, tl.InputSchema, tl.Name)
	}
	require.Equal(t, toolNames(), names)

	for name, args := range f.toolArgs() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err, name)
		require.False(t, res.IsError, name)
		require.Len(t, res.Content, 1, name)
		text, ok := res.Content[0].(*sdk.TextContent)
		require.True(t, ok, name)
		require.True(t, json.Valid([]byte(text.Text)), name)
		require.NotNil(t, res.StructuredContent, name)
	}

	list, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Resources, 2)
	templates, err := cs.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	require.Len(t, templates.ResourceTemplates, 6)
	for _, uri := range f.resourceURIs() {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		require.NoError(t, err, uri)
		require.Len(t, res.Contents, 1, uri)
		require.Equal(t, "application/json", res.Contents[0].MIMEType, uri)
		require.True(t, json.Valid([]byte(res.Contents[0].Text)), uri)
	}

	// A tool the key may not call fails as a JSON-RPC error the SDK reports.
	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	require.ErrorContains(t, err, "Unknown tool")
}

// TestOfficialGoSDKWithoutPinnedVersion lets the SDK probe server/discover
// first and fall back to initialize, as current clients do.
func TestOfficialGoSDKWithoutPinnedVersion(t *testing.T) {
	f := newFixture(t, 1000)
	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "venue-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{
		Endpoint:   f.url,
		HTTPClient: &http.Client{Transport: keyTransport{f.keys["reads"]}},
		MaxRetries: -1,
	}, nil)
	require.NoError(t, err)
	defer cs.Close()
	require.Equal(t, "2025-03-26", cs.InitializeResult().ProtocolVersion)
	_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "venue://alerts"})
	require.NoError(t, err)
}

// TestMCPGo drives the endpoint with the mcp-go client.
func TestMCPGo(t *testing.T) {
	f := newFixture(t, 1000)
	ctx := context.Background()
	c, err := mcpgoclient.NewStreamableHttpClient(f.url, transport.WithHTTPHeaders(map[string]string{"X-API-Key": f.keys["all"]}))
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.Start(ctx))
	init, err := c.Initialize(ctx, mcpgo.InitializeRequest{Params: mcpgo.InitializeParams{
		ProtocolVersion: "2025-03-26",
		ClientInfo:      mcpgo.Implementation{Name: "venue-test", Version: "1.0.0"},
	}})
	require.NoError(t, err)
	require.Equal(t, "2025-03-26", init.ProtocolVersion)
	require.NoError(t, c.Ping(ctx))

	tools, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		require.Equal(t, "object", tl.InputSchema.Type, tl.Name)
	}
	require.Equal(t, toolNames(), names)

	for name, args := range f.toolArgs() {
		if name == mcptools.CreateFlashSaleName {
			args["name"] = "Second offer" // one offer per client
		}
		res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: name, Arguments: args}})
		require.NoError(t, err, name)
		require.False(t, res.IsError, name)
		require.Len(t, res.Content, 1, name)
		text, ok := res.Content[0].(mcpgo.TextContent)
		require.True(t, ok, name)
		require.True(t, json.Valid([]byte(text.Text)), name)
		require.NotNil(t, res.StructuredContent, name)
	}

	resources, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	require.NoError(t, err)
	require.Len(t, resources.Resources, 2)
	templates, err := c.ListResourceTemplates(ctx, mcpgo.ListResourceTemplatesRequest{})
	require.NoError(t, err)
	require.Len(t, templates.ResourceTemplates, 6)
	for _, uri := range f.resourceURIs() {
		res, err := c.ReadResource(ctx, mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: uri}})
		require.NoError(t, err, uri)
		require.Len(t, res.Contents, 1, uri)
		text, ok := res.Contents[0].(mcpgo.TextResourceContents)
		require.True(t, ok, uri)
		require.Equal(t, "application/json", text.MIMEType, uri)
		require.True(t, json.Valid([]byte(text.Text)), uri)
	}
	require.True(t, slices.Contains(names, mcptools.CreateFlashSaleName))
}
