// Package notify owns staff-triggered notifications: who an action on a class could reach
// (Availability), putting messages in the durable outbox (Enqueue*), and delivering them after
// commit through channel adapters (Worker, Relay, Adapters). Nothing is sent unless a request
// asks: every entry point takes an explicit Request, and the zero Request sends nothing.
//
// # The request
//
// Request mirrors the contract's notify object {audience {clients, instructor}, channels
// {email, sms, push}}. Decode it from the body, then:
//
//	if req.Asked() {
//		if err := notify.Authorize(ctx); err != nil { // staff token with notifications.send
//			return err // 403 ACCESS_DENIED, reason notifications_need_staff_session or permission
//		}
//		if err := notify.CheckChannels(notify.ActionCancel, req); err != nil {
//			return err // 400 CHANNEL_REQUIRED or 422 CHANNEL_NOT_ALLOWED (details.channel)
//		}
//	}
//
// Authorize refuses API keys (the contract: API keys cannot send client notifications) and
// users without notifications.send. Call both before changing anything.
//
// # Availability
//
//	av, err := notify.Availability(ctx, client, classIDs, notify.ActionCancel, notify.ActionEdit)
//	entry := av[classID][notify.ActionCancel].Clients.Email // an Entry
//
// An Entry is the contract's Notification availability entry {available, reason_code,
// gate_code, reason, recipient_id, reachable, total, blocked, reach_label}. Gates apply in
// order and the first that closes decides reason_code and gate_code:
//
//  1. unsupported (gate channel_rule): the action's channel rules do not allow this audience
//     on this channel: push reaches clients only (instructors have no app registration);
//     instructors have no phone number, so SMS reaches clients only; substitution tells
//     clients by push only and the instructor by email only.
//  2. venue_capability (gate venue_channel): the venue has the channel switched off. E-mail is
//     on unless the venue's feature module notifications_email is false; SMS and push are off
//     unless notifications_sms / notifications_push are true.
//  3. no_recipients (gate recipients): nobody to tell: no booking in the audience (clients:
//     seat-holding and waitlisted bookings, plus, once the class is cancelled, the bookings
//     the class cancellation cancelled, so a cancellation enqueued after the change in its
//     transaction still reaches them; for restore of a class that is not cancelled, the
//     bookings a cancellation had cancelled), or no instructor assigned.
//  4. per recipient (gate contact): no_contact (no e-mail or phone on the account),
//     invalid_contact (an address that cannot be sent to), user_opted_out (a
//     NotificationOptOut row for the member and channel, or the person's
//     NotificationPreference switching the channel off for the message's category: schedule
//     actions are class_changes, attendance corrections attendance, contact venue_messages;
//     see CategoryOfAction and CategoryOfKind), no_registered_device (push without an
//     enabled PushDevice; POST /me/push-token registers them, RegisterDevice). The entry is available when at least one recipient is reachable;
//     reachable + blocked = total, and when none is reachable reason_code is the most frequent
//     blocking reason.
//
// availability_error (gate availability) is what AvailabilityError returns for a caller that
// could not compute availability (a failed query): it answers the rows without failing the
// whole read. recipient_id is set when the audience has exactly one recipient (the
// instructor).
//
// # Enqueue
//
// Messages are written in the caller's transaction, with the change that causes them:
//
//	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
//		// ... change the class ...
//		res, err := notify.EnqueueForClass(ctx, tx.Client(), classID, notify.ActionCancel, req, notify.Message{
//			Kind: "class.cancelled", Subject: "...", Body: "...", Data: map[string]any{...},
//		})
//		// res.Queued, res.Skipped (each with its reason)
//		return err
//	})
//
// EnqueueForClass reaches the audiences and channels of req for one class; EnqueueForBookings
// reaches the members of chosen bookings (front-desk contact); Enqueue writes rows for explicit
// recipients. Each recipient that cannot be reached on a channel gets a row with status
// skipped and its reason, so the outbox is also the history of who was not told. A zero
// Request writes nothing.
//
// # Delivery
//
// Inside events.WithTx (ctx carries the transaction), the enqueue also inserts one River job
// per pending row into that same transaction (events.EnqueueJobs) and marks the rows
// dispatched: the rows and their jobs exist exactly when the change commits. Outside WithTx
// the rows are written with the given client and left undispatched, and the Relay hands them
// to River after commit: it selects pending rows not yet dispatched with FOR UPDATE SKIP
// LOCKED, inserts one job per row with InsertManyTx and marks them dispatched, in one
// transaction, so a row is neither lost nor queued twice across crashes and instances. A
// rolled-back change leaves no row and so no message.
//
// The Worker (job kind notification_delivery, River's default queue) loads the row, hands it
// to the adapter of its channel and records sent (with the provider's message id), or a
// failure: temporary failures are retried by River with backoff up to MaxAttempts, permanent
// ones (ErrPermanent) end as failed at once; a push token the provider rejects
// permanently disables its PushDevice. A row that is not pending any more is not sent
// again. Delivery is at least once: a crash between the provider's acceptance and the
// recording sends again.
//
// Adapters: e-mail over SMTP (net/smtp, STARTTLS when offered, PLAIN auth when configured),
// SMS and push behind the SMSProvider and PushProvider interfaces. With nothing configured
// every channel is a development sink that writes the message to the log. ConfigFromEnv reads
// VENUE_SMTP_HOST, VENUE_SMTP_PORT, VENUE_SMTP_FROM, VENUE_SMTP_USERNAME, VENUE_SMTP_PASSWORD.
//
// Wiring: jobs.Config.Register = notify.Register(adapters) adds the worker; Relay.Run runs the
// relay loop on any number of instances.
package notify
