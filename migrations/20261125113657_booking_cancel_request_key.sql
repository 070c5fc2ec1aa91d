-- Modify "bookings" table
ALTER TABLE "bookings" ADD COLUMN "cancel_request_key" character varying NULL;
