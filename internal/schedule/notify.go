package schedule

import (
	"context"

	"github.com/venueplatform/venue/internal/notify"
)

// Actions lists the actions a class item shows availability for.
var Actions = []notify.Action{notify.ActionCancel, notify.ActionEdit, notify.ActionSubstitute, notify.ActionRestore}

// CheckNotify checks a write's notify request before anything changes: a
// request that names an audience needs a staff session holding
// notifications.send (API keys are refused) and channels the rules of action
// allow (400 CHANNEL_REQUIRED, 422 CHANNEL_NOT_ALLOWED). The zero request
// sends nothing and passes.
func CheckNotify(ctx context.Context, action notify.Action, r notify.Request) error {
	if !r.Asked() {
		return nil
	}
	if err := notify.Authorize(ctx); err != nil {
		return err
	}
	return notify.CheckChannels(action, r)
}
