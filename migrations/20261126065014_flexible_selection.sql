-- Modify "checkouts" table
ALTER TABLE "checkouts" ADD COLUMN "flexible_kind" character varying NULL, ADD COLUMN "flexible_quantity" bigint NULL;
-- Modify "passes" table
ALTER TABLE "passes" ADD COLUMN "flexible_kind" character varying NULL, ADD COLUMN "flexible_quantity" bigint NULL, ADD COLUMN "flexible_change" jsonb NULL;
