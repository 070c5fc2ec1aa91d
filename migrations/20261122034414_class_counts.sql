-- Modify "class_instances" table
ALTER TABLE "class_instances" ADD COLUMN "booked_count" bigint NOT NULL DEFAULT 0, ADD COLUMN "waitlist_count" bigint NOT NULL DEFAULT 0;
