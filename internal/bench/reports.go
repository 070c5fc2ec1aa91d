package bench

import (
	"time"

	"github.com/venueplatform/venue/internal/scope"
)

// salesSnapshotPath returns request n of the sales snapshot: a 30-day custom
// window ending on one of the 150 days before the venue's first class (the
// seed's today; its payments fall in the 180 days before), on the cash or
// the accrual basis, one request in four filtered to card payments. At any
// venue size the window covers 30 days of the rollup, so the answer's cost
// should not follow the venue's payments.
func salesSnapshotPath(ds *DataSet, n uint64) (string, *Venue) {
	v := firstVenue(ds)
	h := mix(n ^ 0x51ed270b)
	to := v.FirstDay.AddDate(0, 0, -int(h%150))
	from := to.AddDate(0, 0, -29)
	path := "/api/v1/admin/sales-snapshot?range=custom&from=" + from.Format(time.DateOnly) + "&to=" + to.Format(time.DateOnly)
	if (h>>12)%2 == 1 {
		path += "&basis=accrual"
	}
	if (h>>16)%4 == 0 {
		path += "&methods=card"
	}
	return path, v
}

func init() {
	Register(&Op{
		Name:    "members-sales-snapshot",
		Help:    "GET /api/v1/admin/sales-snapshot (read:reports), a 30-day custom window, cash or accrual, on each --member-scales venue (one payment per member)",
		Family:  FamilyMembers,
		Scopes:  []string{scope.ReadReports},
		Request: salesSnapshotPath,
		Check:   checkEnvelope,
		Goals:   []Goal{{Kind: GoalScaleP99, Limit: 2}, {Kind: GoalPlatformP99, Limit: 1.3}},
	})
}
