package notify_test

import (
	"testing"

	"github.com/venueplatform/venue/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }
