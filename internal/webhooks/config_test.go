package webhooks_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/webhooks"
	"github.com/venueplatform/venue/internal/webhooks/retry"
)

func TestParseDelays(t *testing.T) {
	s, err := webhooks.ParseDelays("1s, 2s,5s")
	require.NoError(t, err)
	require.Equal(t, []time.Duration{time.Second, 2 * time.Second, 5 * time.Second}, s.Delays)
	require.Equal(t, 4, s.MaxAttempts())
	for _, bad := range []string{"", "1s,,2s", "-1s", "soon"} {
		_, err := webhooks.ParseDelays(bad)
		require.Error(t, err, bad)
	}
	many := "1s"
	for range retry.Default.MaxAttempts() {
		many += ",1s"
	}
	_, err = webhooks.ParseDelays(many)
	require.Error(t, err, "more attempts than jobs are inserted with")
}

func TestFromConfig(t *testing.T) {
	c, err := webhooks.FromConfig(config.Webhooks{AllowPrivate: true, Workers: 3, RetryDelays: "1s,2s", RescueAfter: 20 * time.Second})
	require.NoError(t, err)
	require.True(t, c.Sender.AllowPrivate)
	require.False(t, c.Sender.AllowHTTP)
	require.Equal(t, 3, c.Workers)
	require.Equal(t, 3, c.Schedule.MaxAttempts())
	require.Equal(t, 20*time.Second, c.RescueAfter)

	c, err = webhooks.FromConfig(config.Webhooks{})
	require.NoError(t, err)
	require.Equal(t, retry.Default, c.Schedule)

	_, err = webhooks.FromConfig(config.Webhooks{RetryDelays: "soon"})
	require.ErrorContains(t, err, "VENUE_WEBHOOK_RETRY_DELAYS")
}
