-- Modify "checkouts" table
ALTER TABLE "checkouts" ADD COLUMN "hold_expires_at" timestamptz NULL, ADD COLUMN "released_at" timestamptz NULL;
-- Create index "checkout_status_hold_expires_at" to table: "checkouts"
CREATE INDEX "checkout_status_hold_expires_at" ON "checkouts" ("status", "hold_expires_at");
