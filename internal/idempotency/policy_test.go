package idempotency_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/idempotency"
)

func TestFormats(t *testing.T) {
	const u = "6F9619FF-8B86-4D11-B42D-00C04FC964FF"
	for _, tc := range []struct {
		f    idempotency.Format
		key  string
		want string // "" means refused
	}{
		{idempotency.UUID, u, strings.ToLower(u)},
		{idempotency.UUID, strings.ToLower(u), strings.ToLower(u)},
		{idempotency.UUID, "6f9619ff8b864d11b42d00c04fc964ff", ""},
		{idempotency.UUID, "{" + u + "}", ""},
		{idempotency.UUID, "urn:uuid:" + u, ""},
		{idempotency.UUID, "order-1", ""},
		{idempotency.Max128, strings.Repeat("a", 128), strings.Repeat("a", 128)},
		{idempotency.Max128, strings.Repeat("a", 129), ""},
		{idempotency.Max128, "x", "x"},
		{idempotency.Max200, strings.Repeat("b", 200), strings.Repeat("b", 200)},
		{idempotency.Max200, strings.Repeat("b", 201), ""},
		{idempotency.ASCII8To160, "abcdefg", ""},
		{idempotency.ASCII8To160, "abcdefgh", "abcdefgh"},
		{idempotency.ASCII8To160, strings.Repeat("c", 160), strings.Repeat("c", 160)},
		{idempotency.ASCII8To160, strings.Repeat("c", 161), ""},
		{idempotency.ASCII8To160, "pos-return:2026-11-22#1", "pos-return:2026-11-22#1"},
		{idempotency.ASCII8To160, "with space!", ""},
		{idempotency.ASCII8To160, "tab\there!", ""},
		{idempotency.ASCII8To160, "nøgle-12345", ""},
		{idempotency.Default, strings.Repeat("d", 255), strings.Repeat("d", 255)},
		{idempotency.Default, strings.Repeat("d", 256), ""},
		{idempotency.Format{}, "zero-format-is-default", "zero-format-is-default"},
	} {
		got, err := tc.f.Normalize(tc.key)
		if tc.want == "" {
			e := apperr.From(err)
			require.Equal(t, http.StatusBadRequest, e.Status, "%s %q", tc.f.Name, tc.key)
			require.Equal(t, "INVALID_IDEMPOTENCY_KEY", e.Code)
			require.Equal(t, "Idempotency-Key", e.Details["parameter"])
			require.Equal(t, "format", e.Details["reason"])
			require.NotEmpty(t, e.Details["format"])
			continue
		}
		require.NoError(t, err, "%s %q", tc.f.Name, tc.key)
		require.Equal(t, tc.want, got)
	}
	require.Contains(t, apperr.From(idempotency.MalformedKey(idempotency.ASCII8To160)).Message, "8 to 160")
	require.Contains(t, apperr.From(idempotency.MalformedKey(idempotency.Max128)).Message, "at most 128")
	require.Contains(t, apperr.From(idempotency.MalformedKey(idempotency.UUID)).Message, "UUID")
	require.Equal(t, "missing", idempotency.MissingKey().Details["reason"])
}
