-- Modify "class_instances" table
ALTER TABLE "class_instances" ADD COLUMN "cancelled_at" timestamptz NULL, ADD COLUMN "cancel_reason" character varying NULL, ADD COLUMN "history_corrected_at" timestamptz NULL;
