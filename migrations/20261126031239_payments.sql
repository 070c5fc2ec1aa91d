-- Create "processor_events" table
CREATE TABLE "processor_events" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "event_id" character varying NOT NULL, "type" character varying NOT NULL, "account" character varying NULL, "payload" bytea NOT NULL, "processed_at" timestamptz NULL, "outcome" character varying NULL, PRIMARY KEY ("id"));
-- Create index "processor_events_event_id_key" to table: "processor_events"
CREATE UNIQUE INDEX "processor_events_event_id_key" ON "processor_events" ("event_id");
-- Create "checkouts" table
CREATE TABLE "checkouts" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "status" character varying NOT NULL DEFAULT 'open', "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "vat_minor" bigint NOT NULL, "vat_rate_bp" bigint NOT NULL, "application_fee_minor" bigint NOT NULL DEFAULT 0, "quote_fingerprint" character varying NOT NULL, "quote_issued_at" timestamptz NOT NULL, "request_key" character varying NULL, "payment_intent_id" character varying NULL, "setup_intent_id" character varying NULL, "pass_id" uuid NULL, "activated_at" timestamptz NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, "pass_type_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "checkouts_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "checkouts_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "checkouts_pass_types_pass_type" FOREIGN KEY ("pass_type_id") REFERENCES "pass_types" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "checkout_organization_id" to table: "checkouts"
CREATE INDEX "checkout_organization_id" ON "checkouts" ("organization_id");
-- Create index "checkout_organization_id_member_id_created_at" to table: "checkouts"
CREATE INDEX "checkout_organization_id_member_id_created_at" ON "checkouts" ("organization_id", "member_id", "created_at");
-- Create index "checkout_organization_id_member_id_quote_fingerprint" to table: "checkouts"
CREATE UNIQUE INDEX "checkout_organization_id_member_id_quote_fingerprint" ON "checkouts" ("organization_id", "member_id", "quote_fingerprint");
-- Create index "checkout_payment_intent_id" to table: "checkouts"
CREATE UNIQUE INDEX "checkout_payment_intent_id" ON "checkouts" ("payment_intent_id");
-- Create index "checkout_setup_intent_id" to table: "checkouts"
CREATE UNIQUE INDEX "checkout_setup_intent_id" ON "checkouts" ("setup_intent_id");
-- Create "payment_attempts" table
CREATE TABLE "payment_attempts" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "purpose" character varying NOT NULL, "subject_id" uuid NOT NULL, "number" bigint NOT NULL, "state" character varying NOT NULL DEFAULT 'created', "live_subject_id" uuid NULL, "processor_object_id" character varying NULL, "failure_code" character varying NULL, "decline_code" character varying NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "payment_attempts_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "paymentattempt_live_subject_id" to table: "payment_attempts"
CREATE UNIQUE INDEX "paymentattempt_live_subject_id" ON "payment_attempts" ("live_subject_id");
-- Create index "paymentattempt_organization_id" to table: "payment_attempts"
CREATE INDEX "paymentattempt_organization_id" ON "payment_attempts" ("organization_id");
-- Create index "paymentattempt_organization_id_subject_id_number" to table: "payment_attempts"
CREATE UNIQUE INDEX "paymentattempt_organization_id_subject_id_number" ON "payment_attempts" ("organization_id", "subject_id", "number");
-- Create "venue_payments" table
CREATE TABLE "venue_payments" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "account_id" character varying NULL, "charges_enabled" boolean NOT NULL DEFAULT false, "details_submitted" boolean NOT NULL DEFAULT false, "vat_rate_bp" bigint NOT NULL DEFAULT 2500, "application_fee_bp" bigint NOT NULL DEFAULT 0, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "venue_payments_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "venuepayments_account_id" to table: "venue_payments"
CREATE UNIQUE INDEX "venuepayments_account_id" ON "venue_payments" ("account_id");
-- Create index "venuepayments_organization_id" to table: "venue_payments"
CREATE INDEX "venuepayments_organization_id" ON "venue_payments" ("organization_id");
-- Create index "venuepayments_organization_unique" to table: "venue_payments"
CREATE UNIQUE INDEX "venuepayments_organization_unique" ON "venue_payments" ("organization_id");
