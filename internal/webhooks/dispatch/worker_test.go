package dispatch_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
	"github.com/venueplatform/venue/internal/webhooks/retry"
)

// The worker is exercised against PostgreSQL and River in package jobs; these are its
// database-free parts.

func TestNewWorkerNeedsStoreAndSender(t *testing.T) {
	_, err := dispatch.NewWorker(dispatch.Config{})
	require.Error(t, err)
	_, err = dispatch.NewWorker(dispatch.Config{Sender: deliver.New(deliver.Options{})})
	require.Error(t, err)
}

func TestDeliverArgs(t *testing.T) {
	args := dispatch.DeliverArgs{}
	require.Equal(t, dispatch.Kind, args.Kind())
	opts := args.InsertOpts()
	require.Equal(t, dispatch.Queue, opts.Queue)
	require.Equal(t, retry.Default.MaxAttempts(), opts.MaxAttempts)
}

func TestAttemptErrorCarriesNoURL(t *testing.T) {
	require.Equal(t, "webhook attempt 3: http_status 503",
		(&dispatch.AttemptError{Number: 3, Class: deliver.ClassHTTPStatus, Status: 503}).Error())
	require.Equal(t, "webhook attempt 1: timeout",
		(&dispatch.AttemptError{Number: 1, Class: deliver.ClassTimeout}).Error())
}
