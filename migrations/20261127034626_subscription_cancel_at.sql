-- Modify "subscriptions" table
ALTER TABLE "subscriptions" ADD COLUMN "cancel_at" timestamptz NULL;
