package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestCheckoutPreviewLocale: the preview's own texts (the flexible
// allowance label, the obligation's message without a selection) are in
// Danish for locale da and in English for en or without one; the prices
// and the quote do not depend on the locale.
func TestCheckoutPreviewLocale(t *testing.T) {
	e := newPayEnv(t, false, false)
	flex := func(locale api.CheckoutPreviewRequestLocale, kind api.CheckoutPreviewRequestKind, n int) api.CheckoutPreview {
		req := &api.CheckoutPreviewRequest{PassTypeSlug: "flexible", Kind: api.NewOptCheckoutPreviewRequestKind(kind)}
		if locale != "" {
			req.Locale = api.NewOptCheckoutPreviewRequestLocale(locale)
		}
		if n > 0 {
			req.Quantity = api.NewOptInt(n)
		}
		res, err := e.member.PostCheckoutPreview(e.ctx, req, api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
		require.NoError(t, err)
		return res.Data
	}
	da := flex(api.CheckoutPreviewRequestLocaleDa, api.CheckoutPreviewRequestKindQuantity, 9)
	en := flex(api.CheckoutPreviewRequestLocaleEn, api.CheckoutPreviewRequestKindQuantity, 9)
	none := flex("", api.CheckoutPreviewRequestKindQuantity, 9)
	require.Equal(t, "9 klasser", da.FlexibleSelection.Value.AllowanceLabel)
	require.Equal(t, "9 classes", en.FlexibleSelection.Value.AllowanceLabel)
	require.Equal(t, "9 classes", none.FlexibleSelection.Value.AllowanceLabel)
	require.Equal(t, en.ChargedTodayMinor, da.ChargedTodayMinor)
	require.Equal(t, en.FlexibleQuote.Value.AuthorityFingerprint, da.FlexibleQuote.Value.AuthorityFingerprint)
	require.Equal(t, "Ubegrænset", flex(api.CheckoutPreviewRequestLocaleDa, api.CheckoutPreviewRequestKindUnlimited, 0).FlexibleSelection.Value.AllowanceLabel)

	get := func(locale api.GetCheckoutPreviewLocale) api.PurchaseObligation {
		p := api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "flexible"}
		if locale != "" {
			p.Locale = api.NewOptGetCheckoutPreviewLocale(locale)
		}
		res, err := e.member.GetCheckoutPreview(e.ctx, p)
		require.NoError(t, err)
		return res.Data.PurchaseObligation
	}
	ob := get(api.GetCheckoutPreviewLocaleDa)
	require.Equal(t, api.PurchaseObligationStatusUnavailable, ob.Status)
	require.Equal(t, "selection_required", ob.ReasonCode.Value)
	require.Contains(t, ob.Message.Value, "fleksibelt medlemskab")
	require.Contains(t, get(api.GetCheckoutPreviewLocaleEn).Message.Value, "flexible membership is priced by its selection")
	require.Equal(t, get("").Message.Value, get(api.GetCheckoutPreviewLocaleEn).Message.Value)
}

// TestCheckoutPreviewLocaleRefused: a locale other than en or da is 400
// VALIDATION_ERROR on GET and POST, and writes nothing.
func TestCheckoutPreviewLocaleRefused(t *testing.T) {
	e := newPayEnv(t, false, false)
	token := e.signup(t, "locale@pay.example", goodPassword).AccessToken
	enroll(t, e.authEnv, e.op, "locale@pay.example", "member")
	send := func(method, query, body string) (int, string) {
		u := e.url + "/api/v1/me/checkout/preview"
		if query != "" {
			u += "?" + query
		}
		var rd *strings.Reader
		if body != "" {
			rd = strings.NewReader(body)
		} else {
			rd = strings.NewReader("")
		}
		req, err := http.NewRequest(method, u, rd)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("X-Organization-ID", e.venue.ID.String())
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var out struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.NewDecoder(res.Body).Decode(&out)
		return res.StatusCode, out.Error.Code
	}
	for _, l := range []string{"de", "DA", "en-US", ""} {
		q := url.Values{"pass_type_slug": {"ten"}, "locale": {l}}
		st, code := send(http.MethodGet, q.Encode(), "")
		require.Equal(t, http.StatusBadRequest, st, l)
		require.Equal(t, "VALIDATION_ERROR", code, l)
		st, code = send(http.MethodPost, "", `{"pass_type_slug":"ten","locale":"`+l+`"}`)
		require.Equal(t, http.StatusBadRequest, st, l)
		require.Equal(t, "VALIDATION_ERROR", code, l)
	}
	st, _ := send(http.MethodGet, url.Values{"pass_type_slug": {"ten"}, "locale": {"da"}}.Encode(), "")
	require.Equal(t, http.StatusOK, st)
	require.Zero(t, e.count(t, "checkouts"))
}
