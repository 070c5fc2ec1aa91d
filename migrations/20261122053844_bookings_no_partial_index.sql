-- Drop index "booking_one_live_per_member" from table: "bookings"
DROP INDEX "booking_one_live_per_member";
