-- Modify "sales_dailies" table
ALTER TABLE "sales_dailies" ADD COLUMN "refunded_minor" bigint NOT NULL DEFAULT 0, ADD COLUMN "refunds" bigint NOT NULL DEFAULT 0;
