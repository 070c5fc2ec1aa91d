// Package events records domain events (member.created, booking.created, ...) and enqueues
// their webhook deliveries, in the transaction of the change that causes them: an event and
// its deliveries exist exactly when that change committed, and none is lost in a crash.
//
// # How to record an event
//
// Make the change inside WithTx and call Record there, with the context WithTx passes and
// the transaction's client:
//
//	err := events.WithTx(ctx, h.client, func(ctx context.Context, tx *ent.Tx) error {
//		b, err := tx.Booking.Create(). /* ... */ Save(ctx)
//		if err != nil {
//			return err // rolls back: no booking, no event, no delivery
//		}
//		_, err = events.Record(ctx, tx.Client(), events.BookingCreated, map[string]any{
//			"booking_id": b.ID.String(), "status": string(b.Status),
//			"class_instance_id": b.ClassInstanceID.String(), "member_id": b.MemberID.String(),
//		})
//		return err
//	})
//
// Rules:
//   - ctx must carry a venue viewer (the event belongs to that venue); a system job acts as
//     the venue it works for.
//   - Record outside WithTx, or with a client other than tx.Client() of the running
//     transaction, returns ErrNoTx and writes nothing: an event can only ride on a change.
//   - WithTx returns fn's error unchanged (apperr values keep their status) and rolls back;
//     it commits when fn returns nil. For an isolation level use WithTxOptions.
//   - Functions that take a client may call WithTx again with tx.Client(): they join the
//     running transaction instead of opening another.
//   - typ must be one of Types; data is the envelope's data object (ids as strings, times as
//     RFC 3339 UTC). Each type's documented data fields are on its constant.
//   - Record adds a few statements (the event row, one delivery row per subscription that
//     selects the type, one River job each); delivery itself happens after commit, in the
//     River worker of package dispatch.
//
// The client must come from db.NewClient, whose driver (NewDriver) lets River insert its
// jobs into the same PostgreSQL transaction as ent.
package events
