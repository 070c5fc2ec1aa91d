package importer

import (
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// The unchanged* functions report whether an existing row already holds
// what the document says, so that re-running a large document skips its
// rows instead of rewriting every one of them.

func unchangedPass(ex *ent.Pass, p *passPlan, member uuid.UUID) bool {
	return ex.MemberID == member && ex.PassTypeID == p.passType && string(ex.Status) == p.status &&
		sameDate(&ex.ValidFrom, &p.validFrom) && sameDate(ex.ValidTo, p.validTo) &&
		sameInt(ex.ClipsRemaining, p.in.ClipsRemaining)
}

func unchangedBooking(ex *ent.Booking, b *bookingPlan, member uuid.UUID) bool {
	return ex.MemberID == member && ex.ClassInstanceID == b.class && sameID(ex.PassID, b.pass) &&
		string(ex.Status) == b.status && sameTime(ex.CancelledAt, b.cancelledAt) &&
		sameTime(ex.CheckedInAt, b.checkedInAt) && sameInt(ex.WaitlistPosition, b.waitlistPosition)
}

func unchangedPayment(ex *ent.Payment, p *paymentPlan, member *uuid.UUID) bool {
	return sameID(ex.MemberID, member) && sameID(ex.PassID, p.pass) && ex.AmountMinor == *p.in.AmountMinor &&
		ex.Currency == p.in.Currency && string(ex.Status) == p.status && string(ex.Kind) == p.kind &&
		sameTime(ex.PaidAt, p.paidAt) && sameString(ex.ProcessorPaymentID, p.in.ProcessorPaymentID)
}

func sameID(a, b *uuid.UUID) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameInt(a, b *int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// sameDate compares calendar dates (a date column reads back at midnight UTC).
func sameDate(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Format(time.DateOnly) == b.Format(time.DateOnly)
}

func sameString(a *string, b string) bool {
	if a == nil {
		return b == ""
	}
	return *a == b
}
