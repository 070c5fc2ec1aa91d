package appointments_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/media"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestSweepServiceImages: published service images that no service names
// go once older than the grace period (an old image left behind, the image
// of a service that is gone); the current images of every venue, a young
// unreferenced file and staged uploads stay.
func TestSweepServiceImages(t *testing.T) {
	a := newSalon(t, "sweep-a")
	v, err := venue.Create(context.Background(), a.client, venue.CreateParams{Name: "Other", Slug: "sweep-b", Timezone: "Europe/Copenhagen"})
	require.NoError(t, err)
	bop := viewer.NewContext(context.Background(), viewer.Operator{Org: v.ID, Name: "test"})
	bsvc := a.client.Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(30).
		SetPriceMinor(0).SetCurrency("DKK").SaveX(bop)
	dir := t.TempDir()
	now := time.Now()
	m := &media.Service{Store: media.Local{Dir: dir}, Now: func() time.Time { return now }}
	ctx := context.Background()
	put := func(key string, age time.Duration) {
		require.NoError(t, m.Store.Put(ctx, key, bytes.NewReader([]byte("img")), 10))
		p := filepath.Join(dir, filepath.FromSlash(key))
		require.NoError(t, os.Chtimes(p, now.Add(-age), now.Add(-age)))
	}
	exists := func(key string) bool {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(key)))
		return err == nil
	}
	key := func(org, svc uuid.UUID) string {
		return "services/" + org.String() + "/" + svc.String() + "/" + uuid.NewString() + ".png"
	}
	old := 25 * time.Hour

	currentA := key(a.org, a.service.ID)
	put(currentA, old)
	a.client.Service.UpdateOne(a.service).SetImageURL(media.PublicPrefix + currentA).ExecX(a.op)
	currentB := key(v.ID, bsvc.ID)
	put(currentB, old)
	a.client.Service.UpdateOne(bsvc).SetImageURL(media.PublicPrefix + currentB).ExecX(bop)
	previous := key(a.org, a.service.ID)
	put(previous, old)
	orphan := key(a.org, uuid.New())
	put(orphan, old)
	young := key(a.org, a.service.ID)
	put(young, time.Hour)
	staged := "uploads/" + uuid.NewString()
	put(staged, old)

	n, err := appointments.SweepServiceImages(ctx, a.client, m)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.False(t, exists(previous), "an image no service names goes after the grace period")
	require.False(t, exists(orphan), "so does the image of a service that is gone")
	require.True(t, exists(currentA))
	require.True(t, exists(currentB), "every venue's current image stays")
	require.True(t, exists(young), "an unreferenced file inside the grace period stays")
	require.True(t, exists(staged), "staged uploads are not this sweep's")

	// Once the service names another image, its former one goes too.
	a.client.Service.UpdateOne(a.service).ClearImageURL().ExecX(a.op)
	n, err = appointments.SweepServiceImages(ctx, a.client, m)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.False(t, exists(currentA))
	require.True(t, exists(currentB))
}
