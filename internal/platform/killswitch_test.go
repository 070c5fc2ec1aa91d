package platform_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/platform"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestKillSwitch(t *testing.T) {
	ctx := context.Background()
	client := db.NewClient(pgtest.NewPool(t))
	s, err := platform.KillSwitch(ctx, client)
	require.NoError(t, err)
	require.False(t, s.Enabled)

	s, err = platform.SetKillSwitch(ctx, client, true, "operator:alice")
	require.NoError(t, err)
	require.True(t, s.Enabled)
	require.Equal(t, "operator:alice", s.ChangedBy)

	s, err = platform.SetKillSwitch(ctx, client, false, "operator:bob")
	require.NoError(t, err)
	require.False(t, s.Enabled)
	require.Equal(t, "operator:bob", s.ChangedBy)
	n, err := client.PlatformSetting.Query().Count(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
}
