-- Modify "bookings" table
ALTER TABLE "bookings" ADD COLUMN "request_key" character varying NULL;
