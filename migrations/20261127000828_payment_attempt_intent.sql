-- Modify "payment_attempts" table
ALTER TABLE "payment_attempts" ADD COLUMN "intent" jsonb NULL;
