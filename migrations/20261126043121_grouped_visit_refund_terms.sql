-- Modify "appointment_policies" table
ALTER TABLE "appointment_policies" ADD COLUMN "grouped_visit_refund_terms" character varying NULL, ADD COLUMN "grouped_visit_terms_confirmed_at" timestamptz NULL;
