// Package dispatch owns the River worker that delivers one webhook: it loads the delivery
// through a Store, signs the payload with the subscription's current secret, sends it through
// package deliver, records every attempt, and schedules the next one on the schedule of
// package retry, or gives up, or disables the subscription on 410 Gone.
//
// Jobs carry only the delivery's id (DeliverArgs): secrets, URLs and payloads stay in the
// application's tables, never in river_job. The caller inserts the delivery row and the job
// with InsertTx in the transaction of the change that causes the event, so a rolled-back
// change sends nothing and a committed one is delivered even across a crash.
//
// Delivery is at least once. A job run that finds the delivery already delivered sends
// nothing, but a crash between a receiver's 2xx and the recording of it sends again; receivers
// deduplicate by webhook-id (Delivery.MessageID), which is the same for every attempt. Events
// are not ordered across deliveries: a retried event may arrive after a later one.
//
// A manual replay is a new delivery row (same MessageID and body, a new id) and a new job, so
// the history of the original stays as it was.
package dispatch
