-- Drop index "booking_one_live_per_member" from table: "bookings"
DROP INDEX "booking_one_live_per_member";
-- Create index "booking_one_live_per_member" to table: "bookings"
CREATE UNIQUE INDEX "booking_one_live_per_member" ON "bookings" ("class_instance_id", "member_id") WHERE ((status)::text = ANY ((ARRAY['confirmed'::character varying, 'waitlisted'::character varying, 'checked_in'::character varying, 'no-show'::character varying, 'pending_payment'::character varying])::text[]));
