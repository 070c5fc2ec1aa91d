package platform

import (
	"context"
	"fmt"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/platformsetting"
	"github.com/venueplatform/venue/internal/system"
)

// KillSwitchKey is the PlatformSetting key of the emergency kill switch.
const KillSwitchKey = "kill_switch"

// KillSwitchState is the state of the kill switch. A switch never set is off,
// with an empty ChangedBy and a zero ChangedAt.
type KillSwitchState struct {
	Enabled   bool
	ChangedBy string
	ChangedAt time.Time
}

// KillSwitch reads the kill switch.
func KillSwitch(ctx context.Context, client *ent.Client) (KillSwitchState, error) {
	s, err := client.PlatformSetting.Query().Where(platformsetting.KeyEQ(KillSwitchKey)).Only(ctx)
	if ent.IsNotFound(err) {
		return KillSwitchState{}, nil
	}
	if err != nil {
		return KillSwitchState{}, fmt.Errorf("read kill switch: %w", err)
	}
	return KillSwitchState{Enabled: s.Enabled, ChangedBy: s.ChangedBy, ChangedAt: s.UpdatedAt}, nil
}

// SetKillSwitch turns the kill switch on or off and records who did it.
func SetKillSwitch(ctx context.Context, client *ent.Client, enabled bool, changedBy string) (KillSwitchState, error) {
	// System call site: the kill switch is platform-wide; no venue viewer may
	// change it, only the platform operator.
	sctx := system.Allow(ctx, "platform.killswitch")
	now := time.Now().UTC()
	err := client.PlatformSetting.Create().
		SetKey(KillSwitchKey).SetEnabled(enabled).SetChangedBy(changedBy).
		SetCreatedAt(now).SetUpdatedAt(now).
		OnConflictColumns(platformsetting.FieldKey).
		UpdateEnabled().UpdateChangedBy().UpdateUpdatedAt().
		Exec(sctx)
	if err != nil {
		return KillSwitchState{}, fmt.Errorf("set kill switch: %w", err)
	}
	return KillSwitch(ctx, client)
}
