-- Modify "services" table
ALTER TABLE "services" ADD COLUMN "deposit_percent_bp" bigint NULL;
