package events

import (
	"context"
	"errors"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/viewer"
)

// Event types.
const (
	// MemberCreated: a person joined a venue (data: member_id, user_id,
	// client_display_id).
	MemberCreated = "member.created"
	// BookingCreated: a seat was confirmed (data: booking_id, status, class_instance_id,
	// member_id).
	BookingCreated = "booking.created"
	// BookingWaitlisted: a booking joined a class's waitlist (data: booking_id, status,
	// class_instance_id, member_id, waitlist_position).
	BookingWaitlisted = "booking.waitlisted"
	// BookingPromoted: a waitlisted booking took a freed seat (data: booking_id, status,
	// class_instance_id, member_id).
	BookingPromoted = "booking.promoted"
	// BookingCancelled: a booking was cancelled or late-cancelled, by the member, staff or
	// the class's cancellation (data: booking_id, status, class_instance_id, member_id,
	// reason).
	BookingCancelled = "booking.cancelled"
	// ClassCancelled: staff cancelled a class instance (data: class_instance_id,
	// start_time, cancelled_bookings).
	ClassCancelled = "class.cancelled"
	// ClassUpdated: staff changed a class instance's time, instructor, room, type or
	// capacity (data: class_instance_id, changed fields).
	ClassUpdated = "class.updated"
	// PaymentSucceeded: a card payment succeeded and what it bought was activated (data:
	// payment_id, checkout_id, member_id, payment_intent_id, amount_minor, currency,
	// vat_minor).
	PaymentSucceeded = "payment.succeeded"
	// PaymentFailed: a card payment was declined or failed (data: checkout_id, member_id,
	// payment_intent_id, amount_minor, currency, failure_code, decline_code).
	PaymentFailed = "payment.failed"
	// PassActivated: a bought pass became active (data: pass_id, pass_type_id, member_id,
	// checkout_id, status).
	PassActivated = "pass.activated"
	// GiftCardPurchased: a member paid for a gift card and it was issued (data:
	// gift_card_id, order_id, payment_id, member_id, amount_minor, currency, deliver_at).
	GiftCardPurchased = "gift_card.purchased"
	// AppointmentCreated: an appointment was booked (data: appointment_id, status,
	// member_id, provider_id, service_id, starts_at).
	AppointmentCreated = "appointment.created"
	// AppointmentCancelled: an appointment was cancelled by the member or staff (data:
	// appointment_id, status, member_id, reason).
	AppointmentCancelled = "appointment.cancelled"
	// AppointmentRescheduled: staff moved an appointment to a new one (data:
	// appointment_id, rescheduled_to_id, member_id, starts_at of the new one).
	AppointmentRescheduled = "appointment.rescheduled"
	// AppointmentNoShow: staff marked an appointment a no-show (data: appointment_id,
	// status, member_id).
	AppointmentNoShow = "appointment.no_show"
	// RefundSucceeded: money was given back on a member's payment (data: refund_id,
	// payment_id, member_id, amount_minor, currency, status, destination, origin).
	RefundSucceeded = "refund.succeeded"
	// RefundFailed: a refund to the card that paid failed; its amount is refundable again
	// (data: refund_id, payment_id, member_id, amount_minor, currency, status, destination,
	// origin, failure_code).
	RefundFailed = "refund.failed"
	// FeeSettled: staff recorded a no-show or late-cancel fee paid outside card payments
	// (data: booking_id, member_id, kind, amount_minor, currency, fee_status, payment_id,
	// method).
	FeeSettled = "fee.settled"
	// FeeWaived: staff waived a no-show or late-cancel fee (data: booking_id, member_id,
	// kind, amount_minor, currency, fee_status).
	FeeWaived = "fee.waived"
	// PosSaleCompleted: the front desk sold products, a pass or a gift card (data:
	// sale_id, payment_id, kind, method, total_minor, vat_minor, currency, member_id).
	PosSaleCompleted = "pos.sale.completed"
	// MembershipRenewed: a membership's renewal invoice was paid and its pass rolled on
	// to the next period (data: pass_id, member_id, invoice_id, invoice_number, payment_id,
	// amount_minor, currency, valid_to, settlement).
	MembershipRenewed = "membership.renewed"
	// MembershipRenewalFailed: a membership's renewal charge was declined; the pass is
	// past due (data: pass_id, member_id, invoice_id, invoice_number, amount_minor,
	// currency, failure_code, decline_code, attempt_count).
	MembershipRenewalFailed = "membership.renewal_failed"
	// GuestInvitePaid: a guest place at a class was paid and the seat is the
	// guest's (data: guest_invite_id, class_instance_id, member_id of the host,
	// payer, payment_id, amount_minor, currency).
	GuestInvitePaid = "guest_invite.paid"
	// FeeCharged: staff collected a no-show or late-cancel fee from the member's saved
	// card (data: booking_id, member_id, kind, amount_minor, currency, fee_status,
	// payment_id, payment_intent_id).
	FeeCharged = "fee.charged"
	// MembershipLateFeeApplied: a membership's renewal invoice was still unpaid past the
	// venue's grace days and got its late fee (data: late_fee_id, pass_id, member_id,
	// invoice_id, invoice_number, amount_minor, currency, fee_status, applied_at).
	// Membership late fees have their own types: the fee.* types are a booking's no-show
	// and late-cancel fees and always carry booking_id.
	MembershipLateFeeApplied = "membership.late_fee_applied"
	// MembershipLateFeePaid: a membership late fee was charged to the member's card, with
	// or after its renewal, automatically or by staff (data: late_fee_id, pass_id,
	// member_id, invoice_id, amount_minor, currency, fee_status, payment_id,
	// payment_intent_id, paid_at).
	MembershipLateFeePaid = "membership.late_fee_paid"
	// MembershipLateFeeWaived: staff waived a membership late fee (data: late_fee_id,
	// pass_id, member_id, invoice_id, amount_minor, currency, fee_status, waived_at).
	MembershipLateFeeWaived = "membership.late_fee_waived"
)

// Types is the catalogue of event types a webhook subscription can select.
var Types = []string{
	BookingCreated, BookingWaitlisted, BookingPromoted, BookingCancelled,
	ClassCancelled, ClassUpdated, MemberCreated,
	PaymentSucceeded, PaymentFailed, PassActivated,
	GiftCardPurchased,
	AppointmentCreated, AppointmentCancelled, AppointmentRescheduled, AppointmentNoShow,
	RefundSucceeded, RefundFailed,
	FeeSettled, FeeWaived,
	PosSaleCompleted,
	MembershipRenewed, MembershipRenewalFailed,
	GuestInvitePaid,
	FeeCharged,
	MembershipLateFeeApplied, MembershipLateFeePaid, MembershipLateFeeWaived,
}

// ErrNoVenue means Record was called without a venue viewer in the context.
var ErrNoVenue = errors.New("events: no venue viewer in context")

// Record appends an event of typ with data to the outbox of the viewer's venue and
// enqueues its webhook deliveries, all in the transaction of the change that causes it.
// ctx must be the context WithTx passes to its function and client that transaction's
// tx.Client(); anything else returns ErrNoTx and writes nothing. typ must be one of Types.
func Record(ctx context.Context, client *ent.Client, typ string, data map[string]any) (*ent.Event, error) {
	st, ok := ctx.Value(txKey{}).(*txState)
	if !ok || client != st.client {
		return nil, ErrNoTx
	}
	if _, ok := viewer.VenueFromContext(ctx); !ok {
		return nil, ErrNoVenue
	}
	if !Known(typ) {
		return nil, fmt.Errorf("events: unknown event type %q", typ)
	}
	if data == nil {
		data = map[string]any{}
	}
	rctx := recordContext(ctx)
	e, err := client.Event.Create().SetType(typ).SetPayload(data).Save(rctx)
	if err != nil {
		return nil, fmt.Errorf("events: record %s: %w", typ, err)
	}
	if err := enqueue(rctx, st, e); err != nil {
		return nil, fmt.Errorf("events: enqueue %s: %w", typ, err)
	}
	return e, nil
}

// Known reports whether typ is in the catalogue Types.
func Known(typ string) bool {
	for _, t := range Types {
		if t == typ {
			return true
		}
	}
	return false
}
