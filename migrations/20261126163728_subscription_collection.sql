-- Modify "subscriptions" table
ALTER TABLE "subscriptions" ADD COLUMN "collection" character varying NOT NULL DEFAULT 'card';
