-- Modify "checkouts" table
ALTER TABLE "checkouts" ADD COLUMN "flash_sale_id" uuid NULL, ADD COLUMN "intro_through" date NULL, ADD COLUMN "binding_months" bigint NULL, ADD COLUMN "vat_exempt" boolean NOT NULL DEFAULT false, ADD COLUMN "credit_applied_minor" bigint NOT NULL DEFAULT 0;
-- Modify "member_credits" table
ALTER TABLE "member_credits" ADD COLUMN "checkout_id" uuid NULL;
-- Modify "members" table
ALTER TABLE "members" ADD COLUMN "birth_date" date NULL;
-- Modify "pass_types" table
ALTER TABLE "pass_types" ADD COLUMN "binding_tiers" jsonb NULL;
