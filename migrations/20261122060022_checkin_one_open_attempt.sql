-- Drop index "bookingreassignment_one_pending" from table: "booking_reassignments"
DROP INDEX "bookingreassignment_one_pending";
-- Modify "booking_reassignments" table
ALTER TABLE "booking_reassignments" ADD COLUMN "open_booking_id" uuid NULL;
-- Create index "bookingreassignment_open_booking_id" to table: "booking_reassignments"
CREATE UNIQUE INDEX "bookingreassignment_open_booking_id" ON "booking_reassignments" ("open_booking_id");
