-- Modify "service_variants" table
ALTER TABLE "service_variants" ADD COLUMN "deposit_minor" bigint NULL;
-- Modify "visits" table
ALTER TABLE "visits" ADD COLUMN "bundle_id" uuid NULL;
