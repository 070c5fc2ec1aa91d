package handlers_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/webhookdelivery"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/secretbox"
	"github.com/venueplatform/venue/internal/webhooks/store"
)

func createHook(t *testing.T, e *hookEnv, url string, types ...string) api.WebhookSecretIssued {
	t.Helper()
	res, err := e.admin.CreateWebhookSubscription(e.ctx, &api.WebhookCreateRequest{
		URL: url, EventTypes: types, Description: api.NewOptString("crm sync"),
	}, api.CreateWebhookSubscriptionParams{})
	require.NoError(t, err)
	return res.Data
}

func TestWebhookSubscriptionLifecycle(t *testing.T) {
	e := newHookEnv(t)
	created := createHook(t, e, "https://crm.example/hooks", events.BookingCreated, events.MemberCreated)
	require.True(t, strings.HasPrefix(created.Secret, "whsec_"))
	sub := created.Subscription
	require.True(t, sub.Enabled)
	require.Equal(t, []string{events.BookingCreated, events.MemberCreated}, sub.EventTypes)
	require.Equal(t, "crm sync", sub.Description)
	require.True(t, strings.HasPrefix(sub.CreatedBy, "user:"))
	row := e.db().WebhookSubscription.GetX(e.op, sub.ID)
	stored, err := store.Secrets(testBox(t), row, time.Now())
	require.NoError(t, err)
	require.Equal(t, []string{created.Secret}, stored, "the secret signs deliveries")

	// Never shown again: get and list carry no secret at all (the schema has no field for it).
	got, err := e.admin.GetWebhookSubscription(e.ctx, api.GetWebhookSubscriptionParams{ID: sub.ID})
	require.NoError(t, err)
	require.Equal(t, sub.URL, got.Data.URL)
	list, err := e.admin.ListWebhookSubscriptions(e.ctx)
	require.NoError(t, err)
	require.Len(t, list.Data, 1, "B's subscription is not listed")
	require.Equal(t, 1, list.Meta.Total)

	// Update.
	up, err := e.admin.UpdateWebhookSubscription(e.ctx, &api.WebhookUpdateRequest{
		EventTypes: []string{events.ClassCancelled}, Description: api.NewOptString("ops"),
	}, api.UpdateWebhookSubscriptionParams{ID: sub.ID})
	require.NoError(t, err)
	require.Equal(t, []string{events.ClassCancelled}, up.Data.EventTypes)
	require.Equal(t, "ops", up.Data.Description)
	require.Equal(t, sub.URL, up.Data.URL)

	// Rotate: a new secret, the old one signs too during the overlap.
	rot, err := e.admin.RotateWebhookSecret(e.ctx, api.NewOptWebhookRotateRequest(api.WebhookRotateRequest{
		OverlapMinutes: api.NewOptInt(60)}), api.RotateWebhookSecretParams{ID: sub.ID})
	require.NoError(t, err)
	require.NotEqual(t, created.Secret, rot.Data.Secret)
	require.False(t, rot.Data.Subscription.PreviousSecretExpiresAt.Null)
	row = e.db().WebhookSubscription.GetX(e.op, sub.ID)
	secrets, err := store.Secrets(testBox(t), row, time.Now())
	require.NoError(t, err)
	require.Equal(t, []string{rot.Data.Secret, created.Secret}, secrets)
	secrets, err = store.Secrets(testBox(t), row, time.Now().Add(61*time.Minute))
	require.NoError(t, err)
	require.Equal(t, []string{rot.Data.Secret}, secrets)
	// Without a body: the default overlap of 24 h.
	rot2, err := e.admin.RotateWebhookSecret(e.ctx, api.OptWebhookRotateRequest{}, api.RotateWebhookSecretParams{ID: sub.ID})
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(24*time.Hour), rot2.Data.Subscription.PreviousSecretExpiresAt.Value, time.Minute)

	// Disable, idempotently; then enable again.
	dis, err := e.admin.DisableWebhookSubscription(e.ctx, api.NewOptWebhookDisableRequest(api.WebhookDisableRequest{
		Reason: api.NewOptString("endpoint moved")}), api.DisableWebhookSubscriptionParams{ID: sub.ID})
	require.NoError(t, err)
	require.False(t, dis.Data.Enabled)
	require.Equal(t, "endpoint moved", dis.Data.DisabledReason.Value)
	dis, err = e.admin.DisableWebhookSubscription(e.ctx, api.OptWebhookDisableRequest{}, api.DisableWebhookSubscriptionParams{ID: sub.ID})
	require.NoError(t, err)
	require.Equal(t, "endpoint moved", dis.Data.DisabledReason.Value, "disabling again changes nothing")
	en, err := e.admin.UpdateWebhookSubscription(e.ctx, &api.WebhookUpdateRequest{Enabled: api.NewOptBool(true)},
		api.UpdateWebhookSubscriptionParams{ID: sub.ID})
	require.NoError(t, err)
	require.True(t, en.Data.Enabled)
	require.True(t, en.Data.DisabledReason.Null)

	for _, action := range []string{"webhook.create", "webhook.update", "webhook.rotate_secret", "webhook.disable"} {
		n := e.db().AuditLog.Query().Where(auditlog.Action(action), auditlog.Target("webhook_subscription:"+sub.ID.String())).CountX(e.op)
		require.Positive(t, n, action)
	}
	for _, entry := range e.db().AuditLog.Query().AllX(e.op) {
		require.NotContains(t, entry.Details, "secret")
	}
}

func TestWebhookSubscriptionBadInput(t *testing.T) {
	e := newHookEnv(t)
	create := func(url string, types ...string) error {
		_, err := e.admin.CreateWebhookSubscription(e.ctx, &api.WebhookCreateRequest{URL: url, EventTypes: types},
			api.CreateWebhookSubscriptionParams{})
		return err
	}
	es := hookErr(t, create("https://crm.example/h", "booking.deleted"), http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "event_types", es.Response.Error.Details.Parameter.Value)
	hookErr(t, create("https://crm.example/h", events.BookingCreated, events.BookingCreated), http.StatusBadRequest, "VALIDATION_ERROR")
	for _, url := range []string{"http://crm.example/h", "https://127.0.0.1/h", "https://localhost/h",
		"https://10.1.2.3/h", "https://169.254.169.254/latest", "ftp://crm.example", "https://[::1]/h"} {
		es := hookErr(t, create(url, events.BookingCreated), http.StatusBadRequest, "VALIDATION_ERROR")
		require.Equal(t, "url", es.Response.Error.Details.Parameter.Value, url)
	}
	require.Zero(t, e.db().WebhookSubscription.Query().CountX(e.op), "nothing was created")

	sub := createHook(t, e, "https://crm.example/h", events.BookingCreated)
	_, err := e.admin.UpdateWebhookSubscription(e.ctx, &api.WebhookUpdateRequest{}, api.UpdateWebhookSubscriptionParams{ID: sub.Subscription.ID})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = e.admin.UpdateWebhookSubscription(e.ctx, &api.WebhookUpdateRequest{URL: api.NewOptString("https://192.168.1.1/")},
		api.UpdateWebhookSubscriptionParams{ID: sub.Subscription.ID})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "https://crm.example/h", e.db().WebhookSubscription.GetX(e.op, sub.Subscription.ID).URL)
}

func TestWebhookAccess(t *testing.T) {
	e := newHookEnv(t)
	sub := createHook(t, e, "https://crm.example/h", events.BookingCreated)

	// Staff without settings.business: 403 naming the permission.
	clerk := e.staffWith(t, "clerk@hooks.example", "booking.checkin")
	_, err := clerk.ListWebhookSubscriptions(e.ctx)
	es := hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "permission", es.Response.Error.Details.Reason.Value)
	_, err = clerk.CreateWebhookSubscription(e.ctx, &api.WebhookCreateRequest{URL: "https://x.example", EventTypes: []string{events.BookingCreated}},
		api.CreateWebhookSubscriptionParams{})
	hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")

	// API keys cannot manage webhooks.
	req, err := http.NewRequest(http.MethodGet, e.url+"/api/v1/admin/webhooks", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", e.studio.key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	// Venue B's subscription and delivery are 404 for A, exactly like unknown ids.
	for _, id := range []uuid.UUID{e.otherSub.ID, uuid.New()} {
		_, err = e.admin.GetWebhookSubscription(e.ctx, api.GetWebhookSubscriptionParams{ID: id})
		hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
		_, err = e.admin.UpdateWebhookSubscription(e.ctx, &api.WebhookUpdateRequest{Description: api.NewOptString("x")},
			api.UpdateWebhookSubscriptionParams{ID: id})
		hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
		_, err = e.admin.RotateWebhookSecret(e.ctx, api.OptWebhookRotateRequest{}, api.RotateWebhookSecretParams{ID: id})
		hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
		_, err = e.admin.DisableWebhookSubscription(e.ctx, api.OptWebhookDisableRequest{}, api.DisableWebhookSubscriptionParams{ID: id})
		hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
		_, err = e.admin.ListWebhookDeliveries(e.ctx, api.ListWebhookDeliveriesParams{ID: id})
		hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
		_, err = e.admin.PingWebhookSubscription(e.ctx, api.PingWebhookSubscriptionParams{ID: id})
		hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
		_, err = e.admin.ListWebhookDeliveryAttempts(e.ctx, api.ListWebhookDeliveryAttemptsParams{ID: id, DeliveryID: e.otherDelivery.ID})
		hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
		_, err = e.admin.ReplayWebhookDelivery(e.ctx, api.ReplayWebhookDeliveryParams{ID: id, DeliveryID: e.otherDelivery.ID})
		hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	}
	// B's delivery under A's own subscription.
	_, err = e.admin.ListWebhookDeliveryAttempts(e.ctx, api.ListWebhookDeliveryAttemptsParams{ID: sub.Subscription.ID, DeliveryID: e.otherDelivery.ID})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.admin.ReplayWebhookDelivery(e.ctx, api.ReplayWebhookDeliveryParams{ID: sub.Subscription.ID, DeliveryID: e.otherDelivery.ID})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.True(t, e.db().WebhookSubscription.GetX(e.otherOp, e.otherSub.ID).Enabled, "B's subscription unchanged")
	require.Equal(t, 1, e.db().WebhookDelivery.Query().CountX(e.otherOp), "nothing replayed for B")
}

func TestWebhookDeliveryHistory(t *testing.T) {
	e := newHookEnv(t)
	sub := createHook(t, e, "https://crm.example/h", events.MemberCreated, events.BookingCreated).Subscription
	for range 3 {
		e.record(t, e.op, events.MemberCreated)
	}
	e.record(t, e.op, events.BookingCreated)
	e.record(t, e.op, events.ClassCancelled) // not selected
	jobsBefore := e.jobs(t)
	require.Equal(t, 5, jobsBefore, "4 for A, 1 for B")

	// Pages of 2, newest first, following the cursor.
	var seen []uuid.UUID
	after := api.OptString{}
	for {
		page, err := e.admin.ListWebhookDeliveries(e.ctx, api.ListWebhookDeliveriesParams{ID: sub.ID, Limit: api.NewOptInt(2), After: after})
		require.NoError(t, err)
		for _, d := range page.Data {
			seen = append(seen, d.ID)
			require.Equal(t, sub.ID, d.SubscriptionID)
			require.Equal(t, api.WebhookDeliveryStatusPending, d.Status)
		}
		if !page.Meta.HasMore {
			require.True(t, page.Meta.NextCursor.Null)
			break
		}
		after = api.NewOptString(page.Meta.NextCursor.Value)
	}
	require.Len(t, seen, 4)
	_, err := e.admin.ListWebhookDeliveries(e.ctx, api.ListWebhookDeliveriesParams{ID: sub.ID, After: api.NewOptString("bogus")})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")

	// Filters.
	byType, err := e.admin.ListWebhookDeliveries(e.ctx, api.ListWebhookDeliveriesParams{ID: sub.ID, EventType: api.NewOptString(events.BookingCreated)})
	require.NoError(t, err)
	require.Len(t, byType.Data, 1)
	first := byType.Data[0]
	e.db().WebhookDelivery.UpdateOneID(first.ID).SetStatus(webhookdelivery.StatusFailed).SetAttempts(1).ExecX(e.op)
	e.db().WebhookAttempt.Create().SetDeliveryID(first.ID).SetNumber(1).SetStartedAt(time.Now()).
		SetStatusCode(503).SetOutcome("failed").SetErrorClass("http_status").SetCorrelationID("corr-1").ExecX(e.op)
	failed, err := e.admin.ListWebhookDeliveries(e.ctx, api.ListWebhookDeliveriesParams{ID: sub.ID, Status: api.NewOptListWebhookDeliveriesStatus(api.ListWebhookDeliveriesStatusFailed)})
	require.NoError(t, err)
	require.Len(t, failed.Data, 1)

	atts, err := e.admin.ListWebhookDeliveryAttempts(e.ctx, api.ListWebhookDeliveryAttemptsParams{ID: sub.ID, DeliveryID: first.ID})
	require.NoError(t, err)
	require.Len(t, atts.Data, 1)
	require.Equal(t, 503, atts.Data[0].StatusCode.Value)
	require.Equal(t, "corr-1", atts.Data[0].CorrelationID)

	// Replay: a new delivery, same webhook-id, its own job, the original untouched.
	rep, err := e.admin.ReplayWebhookDelivery(e.ctx, api.ReplayWebhookDeliveryParams{ID: sub.ID, DeliveryID: first.ID,
		IdempotencyKey: api.NewOptString("replay-1")})
	require.NoError(t, err)
	require.NotEqual(t, first.ID, rep.Data.ID)
	require.Equal(t, first.MessageID, rep.Data.MessageID)
	require.Equal(t, first.ID, rep.Data.ReplayOf.Value)
	require.Equal(t, api.WebhookDeliveryStatusPending, rep.Data.Status)
	require.Equal(t, webhookdelivery.StatusFailed, e.db().WebhookDelivery.GetX(e.op, first.ID).Status)
	require.Equal(t, jobsBefore+1, e.jobs(t))
	require.Equal(t, 1, e.db().AuditLog.Query().Where(auditlog.Action("webhook.replay"),
		auditlog.Target("webhook_subscription:"+sub.ID.String())).CountX(e.op), "the replay is audited")
	// The same key again replays the answer: no second delivery.
	again, err := e.admin.ReplayWebhookDelivery(e.ctx, api.ReplayWebhookDeliveryParams{ID: sub.ID, DeliveryID: first.ID,
		IdempotencyKey: api.NewOptString("replay-1")})
	require.NoError(t, err)
	require.Equal(t, rep.Data.ID, again.Data.ID)
	require.Equal(t, jobsBefore+1, e.jobs(t))
	require.Equal(t, 1, e.db().AuditLog.Query().Where(auditlog.Action("webhook.replay")).CountX(e.op), "a replayed answer audits nothing")

	// Ping: a webhook.ping delivery to this subscription only.
	ping, err := e.admin.PingWebhookSubscription(e.ctx, api.PingWebhookSubscriptionParams{ID: sub.ID})
	require.NoError(t, err)
	require.Equal(t, "webhook.ping", ping.Data.EventType)
	require.Equal(t, jobsBefore+2, e.jobs(t))

	// A disabled subscription neither replays nor pings, and gets no new deliveries.
	_, err = e.admin.DisableWebhookSubscription(e.ctx, api.OptWebhookDisableRequest{}, api.DisableWebhookSubscriptionParams{ID: sub.ID})
	require.NoError(t, err)
	require.Zero(t, e.db().WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(sub.ID),
		webhookdelivery.StatusIn(webhookdelivery.StatusPending, webhookdelivery.StatusRetrying)).CountX(e.op))
	_, err = e.admin.ReplayWebhookDelivery(e.ctx, api.ReplayWebhookDeliveryParams{ID: sub.ID, DeliveryID: first.ID})
	hookErr(t, err, http.StatusUnprocessableEntity, "WEBHOOK_DISABLED")
	_, err = e.admin.PingWebhookSubscription(e.ctx, api.PingWebhookSubscriptionParams{ID: sub.ID})
	hookErr(t, err, http.StatusUnprocessableEntity, "WEBHOOK_DISABLED")
	n := e.db().WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(sub.ID)).CountX(e.op)
	e.record(t, e.op, events.MemberCreated)
	require.Equal(t, n, e.db().WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(sub.ID)).CountX(e.op))
}

func TestWebhookCreateIdempotent(t *testing.T) {
	e := newHookEnv(t)
	req := &api.WebhookCreateRequest{URL: "https://crm.example/h", EventTypes: []string{events.BookingCreated}}
	p := api.CreateWebhookSubscriptionParams{IdempotencyKey: api.NewOptString("create-1")}
	a, err := e.admin.CreateWebhookSubscription(e.ctx, req, p)
	require.NoError(t, err)
	b, err := e.admin.CreateWebhookSubscription(e.ctx, req, p)
	require.NoError(t, err)
	require.Equal(t, a.Data.Subscription.ID, b.Data.Subscription.ID)
	require.Equal(t, 1, e.db().WebhookSubscription.Query().CountX(e.op))
}

// testBox opens webhook secrets with the keys the test servers seal them
// with (settings: the test process's environment).
func testBox(t *testing.T) *secretbox.Box {
	t.Helper()
	w := settings(t).Webhooks
	decode := func(v string) []byte {
		k, err := base64.StdEncoding.DecodeString(v)
		require.NoError(t, err)
		return k
	}
	var current []byte
	if w.SecretKey != "" {
		current = decode(w.SecretKey)
	}
	var previous [][]byte
	for _, v := range w.PreviousKeys {
		previous = append(previous, decode(v))
	}
	b, err := secretbox.New(secretbox.FormatWebhook, current, previous...)
	require.NoError(t, err)
	return b
}
