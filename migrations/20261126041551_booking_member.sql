-- Create index "booking_member_id" to table: "bookings"
CREATE INDEX "booking_member_id" ON "bookings" ("member_id");
