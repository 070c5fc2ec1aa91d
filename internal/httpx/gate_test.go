package httpx

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
)

func TestGateTableBuilds(t *testing.T) {
	table, err := gateTable()
	require.NoError(t, err)
	require.Equal(t, "uuid", table["getAdminScheduleItem"].path["id"].format)
	require.Equal(t, "date", table["getDiscovery"].query["date"].format)
	require.Contains(t, table["listVenues"].query, "search")
	require.Equal(t, "uuid", table["listBookings"].header["X-Organization-ID"].format)
	require.NotContains(t, table["joinVenue"].header, "Idempotency-Key")
	require.True(t, table["authSignup"].jsonBody)
	require.Equal(t, "uuid", table["bulkCancelAdminSchedule"].body["instance_ids[]"])
	require.Equal(t, "date-time", table["updateAdminScheduleItem"].body["start_time"])
}

// gateCase is one request through the gate: the operation FindOperation
// would name, and the answer (0: the gate lets it through).
type gateCase struct {
	name, op, method, target, body string
	header                         map[string]string
	status                         int
	param                          string
}

const id = "0b6e4f2a-5c1d-4e8f-9a7b-3c2d1e0f9a8b"

var gateCases = []gateCase{
	{name: "slug NUL", op: "getVenue", method: "GET", target: "/api/v1/venues/%00", status: 404},
	{name: "slug bad UTF-8", op: "getVenue", method: "GET", target: "/api/v1/venues/%ff", status: 404},
	{name: "slug fine", op: "getVenue", method: "GET", target: "/api/v1/venues/copenhagen-flow"},
	{name: "code NUL", op: "getGiftCardPreview", method: "GET", target: "/api/v1/venues/copenhagen-flow/gift-cards/abc%00def/preview", status: 404},
	{name: "id braces", op: "getAdminScheduleItem", method: "GET", target: "/api/v1/admin/schedule/%7B" + id + "%7D", status: 404},
	{name: "id no dashes", op: "getAdminScheduleItem", method: "GET", target: "/api/v1/admin/schedule/" + strings.ReplaceAll(id, "-", ""), status: 404},
	{name: "id canonical", op: "getAdminScheduleItem", method: "GET", target: "/api/v1/admin/schedule/" + id},
	{name: "search NUL", op: "listVenues", method: "GET", target: "/api/v1/venues?search=a%00b", status: 400, param: "search"},
	{name: "city NUL", op: "listVenues", method: "GET", target: "/api/v1/venues?city=a%00b", status: 400, param: "city"},
	{name: "search bad escape", op: "listVenues", method: "GET", target: "/api/v1/venues?search=%zz", status: 400, param: "search"},
	{name: "unknown key bad escape", op: "listVenues", method: "GET", target: "/api/v1/venues?page=1&x=%2", status: 400, param: "x"},
	{name: "semicolon", op: "listVenues", method: "GET", target: "/api/v1/venues?search=a;b", status: 400, param: "search"},
	{name: "search fine", op: "listVenues", method: "GET", target: "/api/v1/venues?search=K%C3%B8benhavn+yoga"},
	{name: "discovery year 0", op: "getDiscovery", method: "GET", target: "/api/v1/discovery?date=0000-01-01", status: 400, param: "date"},
	{name: "discovery year 2201", op: "getDiscoveryCounts", method: "GET", target: "/api/v1/discovery/counts?date=2201-01-01", status: 400, param: "date"},
	{name: "discovery malformed date left to decoder", op: "getDiscovery", method: "GET", target: "/api/v1/discovery?date=tomorrow"},
	{name: "query uuid braces", op: "getVenueSchedule", method: "GET", target: "/api/v1/venues/x/schedule?location_id=%7B" + id + "%7D", status: 400, param: "location_id"},
	{name: "header uuid no dashes", op: "listBookings", method: "GET", target: "/api/v1/bookings",
		header: map[string]string{"X-Organization-ID": strings.ReplaceAll(id, "-", "")}, status: 400, param: "X-Organization-ID"},
	{name: "body NUL", op: "authSignup", method: "POST", target: "/api/v1/auth/signup",
		body: `{"email":"a@b.dk","first_name":"a\u0000"}`, status: 400, param: "first_name"},
	{name: "body raw bad UTF-8", op: "authSignup", method: "POST", target: "/api/v1/auth/signup",
		body: "{\"first_name\":\"\xed\xa0\x80\"}", status: 400, param: "first_name"},
	{name: "body duplicate key", op: "updateMe", method: "PATCH", target: "/api/v1/me",
		body: `{"last_name":"a","last_name":"b"}`, status: 400, param: "last_name"},
	{name: "body nested NUL", op: "registerMyPushToken", method: "POST", target: "/api/v1/me/push-token",
		body: `{"device_id":"dev-\u0000"}`, status: 400, param: "device_id"},
	{name: "body uuid in array", op: "bulkCancelAdminSchedule", method: "POST", target: "/api/v1/admin/schedule/bulk-cancel",
		body: `{"instance_ids":["` + id + `","{` + id + `}"]}`, status: 400, param: "instance_ids[1]"},
	{name: "body date-time year 0", op: "updateAdminScheduleItem", method: "PATCH", target: "/api/v1/admin/schedule/" + id,
		body: `{"start_time":"0000-01-01T10:00:00Z"}`, status: 400, param: "start_time"},
	{name: "body fine", op: "authSignup", method: "POST", target: "/api/v1/auth/signup",
		body: `{"email":"a@b.dk","first_name":"Søren"}`},
	{name: "body not JSON content type", op: "authSignup", method: "POST", target: "/api/v1/auth/signup",
		header: map[string]string{"Content-Type": "text/plain"}, body: "\x00"},
	{name: "unknown operation", op: "", method: "GET", target: "/api/v1/nope?x=%zz"},
}

func TestGate(t *testing.T) {
	notFound := func(param string) *apperr.Error { return apperr.NotFound(param) }
	for _, tc := range gateCases {
		t.Run(tc.name, func(t *testing.T) {
			var reached bool
			var gotBody string
			h := Gate(notFound, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				reached = true
				if r.Body != nil {
					b, _ := io.ReadAll(r.Body)
					gotBody = string(b)
				}
				w.WriteHeader(http.StatusNoContent)
			}))
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			r := httptest.NewRequest(tc.method, tc.target, body)
			if tc.body != "" {
				r.Header.Set("Content-Type", "application/json")
			}
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			r = r.WithContext(WithOperation(r.Context(), tc.op, tc.op != ""))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if tc.status == 0 {
				require.True(t, reached, w.Body.String())
				require.Equal(t, tc.body, gotBody, "the body is put back for the decoder")
				return
			}
			require.False(t, reached)
			require.Equal(t, tc.status, w.Code)
			var env Envelope
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &env))
			if tc.status == 400 {
				require.Equal(t, apperr.CodeValidation, env.Error.Code)
				require.Equal(t, tc.param, env.Error.Details["parameter"])
				require.True(t, strings.HasPrefix(env.Error.Message, tc.param+" "), env.Error.Message)
			}
			require.NotContains(t, w.Body.String(), `\u0000`)
		})
	}
}

func TestGateBodyCap(t *testing.T) {
	h := Gate(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Fatal("reached") }))
	big := `{"first_name":"` + strings.Repeat("a", MaxBodyBytes) + `"}`
	r := httptest.NewRequest("POST", "/api/v1/auth/signup", strings.NewReader(big))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	h.ServeHTTP(w, r.WithContext(WithOperation(r.Context(), "authSignup", true)))
	require.Equal(t, http.StatusRequestEntityTooLarge, w.Code)
}

func TestWildIndexes(t *testing.T) {
	require.Equal(t, "lines[].note", wildIndexes("lines[12].note"))
	require.Equal(t, "[][]", wildIndexes("[0][3]"))
	require.Equal(t, "a.b", wildIndexes("a.b"))
}
