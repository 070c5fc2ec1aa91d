package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestMyNotificationPreferences: the defaults, partial changes kept across
// calls, unknown categories and malformed values refused without change, and
// the effect: a member who switched e-mail off for class changes shows as
// user_opted_out in the schedule's availability and is skipped (not sent) when
// staff tell the class's clients by e-mail.
func TestMyNotificationPreferences(t *testing.T) {
	e := newSchedEnv(t)
	s := e.signup(t, "pref@example.com", goodPassword)
	enroll(t, e.authEnv, e.op, "pref@example.com", "member")
	c := e.client(t, s.AccessToken)

	got, err := c.GetMyNotificationPreferences(e.ctx)
	require.NoError(t, err)
	d := got.Data
	require.True(t, d.UpdatedAt.Null)
	require.True(t, d.Categories.ClassChanges.Email)
	require.True(t, d.Categories.ClassChanges.SMS)
	require.False(t, d.Categories.Reminders.SMS)
	require.False(t, d.Categories.Offers.Email || d.Categories.Offers.SMS || d.Categories.Offers.Push, "offers are opt-in")
	require.True(t, d.Categories.Reminders.MaxPerDay.Null)
	require.False(t, d.QuietHours.Enabled)
	require.Equal(t, "22:00", d.QuietHours.Start)
	require.Contains(t, d.QuietHoursCategories, "offers")
	require.NotContains(t, d.QuietHoursCategories, "class_changes")

	patch := func(key string, body *api.MeNotificationPreferencesPatch) (*api.MeNotificationPreferencesResponse, error) {
		return c.UpdateMyNotificationPreferences(e.ctx, body, api.UpdateMyNotificationPreferencesParams{IdempotencyKey: key})
	}
	cats := func(m map[string]api.MeNotificationCategoryPatch) api.OptMeNotificationPreferencesPatchCategories {
		return api.NewOptMeNotificationPreferencesPatchCategories(m)
	}
	_, err = patch("p-unknown", &api.MeNotificationPreferencesPatch{Categories: cats(map[string]api.MeNotificationCategoryPatch{
		"class_changes": {Email: api.NewOptBool(false)}, "sms_spam": {SMS: api.NewOptBool(true)}})})
	es := requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "categories.sms_spam", es.Response.Error.Details.Parameter.Value)
	_, err = patch("p-cap", &api.MeNotificationPreferencesPatch{Categories: cats(map[string]api.MeNotificationCategoryPatch{
		"reminders": {MaxPerDay: api.NewOptNilInt(0)}})})
	es = requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "categories.reminders.max_per_day", es.Response.Error.Details.Parameter.Value)
	_, err = patch("p-clock", &api.MeNotificationPreferencesPatch{QuietHours: api.NewOptMeQuietHoursPatch(api.MeQuietHoursPatch{
		Start: api.NewOptString("25:00")})})
	es = requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "quiet_hours.start", es.Response.Error.Details.Parameter.Value)
	_, err = patch("p-zone", &api.MeNotificationPreferencesPatch{QuietHours: api.NewOptMeQuietHoursPatch(api.MeQuietHoursPatch{
		Timezone: api.NewOptString("Mars/Olympus")})})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	got, err = c.GetMyNotificationPreferences(e.ctx)
	require.NoError(t, err)
	require.True(t, got.Data.UpdatedAt.Null, "refused changes store nothing")
	require.True(t, got.Data.Categories.ClassChanges.Email)

	res, err := patch("p-1", &api.MeNotificationPreferencesPatch{
		Categories: cats(map[string]api.MeNotificationCategoryPatch{
			"class_changes": {Email: api.NewOptBool(false)},
			"offers":        {Push: api.NewOptBool(true)},
			"reminders":     {MaxPerDay: api.NewOptNilInt(3)},
		}),
		QuietHours: api.NewOptMeQuietHoursPatch(api.MeQuietHoursPatch{Enabled: api.NewOptBool(true), Start: api.NewOptString("21:30"),
			Timezone: api.NewOptString("Europe/Copenhagen")}),
	})
	require.NoError(t, err)
	d = res.Data
	require.False(t, d.UpdatedAt.Null)
	require.False(t, d.Categories.ClassChanges.Email)
	require.True(t, d.Categories.ClassChanges.Push, "channels not sent stay")
	require.True(t, d.Categories.Offers.Push)
	require.Equal(t, 3, d.Categories.Reminders.MaxPerDay.Value)
	require.Equal(t, api.MeQuietHours{Enabled: true, Start: "21:30", End: "07:00", Timezone: api.NewNilString("Europe/Copenhagen")}, d.QuietHours)
	// A later partial change keeps the earlier ones; null clears a cap.
	res, err = patch("p-2", &api.MeNotificationPreferencesPatch{Categories: cats(map[string]api.MeNotificationCategoryPatch{
		"class_changes": {SMS: api.NewOptBool(false)}, "reminders": {MaxPerDay: api.OptNilInt{Set: true, Null: true}}})})
	require.NoError(t, err)
	require.False(t, res.Data.Categories.ClassChanges.Email)
	require.False(t, res.Data.Categories.ClassChanges.SMS)
	require.True(t, res.Data.Categories.Reminders.MaxPerDay.Null)
	got, err = c.GetMyNotificationPreferences(e.ctx)
	require.NoError(t, err)
	require.Equal(t, res.Data.Categories, got.Data.Categories)
	// A retry with the same key and body replays the first answer (one category, so the
	// client encodes the same bytes).
	retry := func() (*api.MeNotificationPreferencesResponse, error) {
		return patch("p-3", &api.MeNotificationPreferencesPatch{Categories: cats(map[string]api.MeNotificationCategoryPatch{
			"community": {Push: api.NewOptBool(false)}})})
	}
	first, err := retry()
	require.NoError(t, err)
	again, err := retry()
	require.NoError(t, err)
	require.Equal(t, first.Data.UpdatedAt, again.Data.UpdatedAt)
	require.False(t, again.Data.Categories.Community.Push)

	// The effect on a venue's message: the member's only booking.
	mine := e.db().Member.Query().Where(member.UserID(s.User.ID)).OnlyX(e.op)
	start := e.today.AddDate(0, 0, 4).Add(9 * time.Hour)
	cls := e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(start).SetEndTime(start.Add(time.Hour)).
		SetCapacity(5).SaveX(e.op)
	e.db().Booking.Create().SetMemberID(mine.ID).SetClassInstanceID(cls.ID).SaveX(e.op)
	item, err := e.keyClient(t, e.studio.key).GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: cls.ID})
	require.NoError(t, err)
	email := item.Data.NotificationAvailability.Value.Cancel.Clients.Email
	require.False(t, email.Available)
	require.Equal(t, "user_opted_out", email.ReasonCode.Value)

	sender := e.staff(t, "sender@example.com", "class.cancel", "notifications.send")
	out, err := sender.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{Notify: notifyOf(true, false, true, false, false)},
		api.CancelAdminScheduleItemParams{ID: cls.ID})
	require.NoError(t, err)
	require.True(t, out.Data.Notifications.Requested)
	require.Zero(t, out.Data.Notifications.Queued)
	rows := e.db().NotificationDelivery.Query().Where(notificationdelivery.ClassInstanceID(cls.ID)).AllX(e.op)
	require.Len(t, rows, 1)
	require.Equal(t, notificationdelivery.StatusSkipped, rows[0].Status)
	require.Equal(t, "user_opted_out", *rows[0].StatusReason)
}
