-- Modify "appointments" table
ALTER TABLE "appointments" ADD COLUMN "hold_expires_at" timestamptz NULL, ADD COLUMN "due_minor" bigint NOT NULL DEFAULT 0, ADD COLUMN "paid_minor" bigint NOT NULL DEFAULT 0, ADD COLUMN "paid_at" timestamptz NULL, ADD COLUMN "payment_intent_id" character varying NULL, ADD COLUMN "checkout_key" character varying NULL;
-- Create index "appointment_organization_id_member_id_checkout_key" to table: "appointments"
CREATE UNIQUE INDEX "appointment_organization_id_member_id_checkout_key" ON "appointments" ("organization_id", "member_id", "checkout_key");
-- Modify "services" table
ALTER TABLE "services" ADD COLUMN "deposit_minor" bigint NULL;
-- Modify "visits" table
ALTER TABLE "visits" ADD COLUMN "hold_expires_at" timestamptz NULL, ADD COLUMN "due_minor" bigint NOT NULL DEFAULT 0, ADD COLUMN "paid_minor" bigint NOT NULL DEFAULT 0, ADD COLUMN "paid_at" timestamptz NULL, ADD COLUMN "payment_intent_id" character varying NULL, ADD COLUMN "checkout_key" character varying NULL;
-- Create index "visit_organization_id_member_id_checkout_key" to table: "visits"
CREATE UNIQUE INDEX "visit_organization_id_member_id_checkout_key" ON "visits" ("organization_id", "member_id", "checkout_key");
