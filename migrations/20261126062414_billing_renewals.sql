-- Create "invoice_counters" table
CREATE TABLE "invoice_counters" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "year" bigint NOT NULL, "next" bigint NOT NULL DEFAULT 1, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "invoice_counters_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "invoicecounter_organization_id" to table: "invoice_counters"
CREATE INDEX "invoicecounter_organization_id" ON "invoice_counters" ("organization_id");
-- Create index "invoicecounter_organization_id_year" to table: "invoice_counters"
CREATE UNIQUE INDEX "invoicecounter_organization_id_year" ON "invoice_counters" ("organization_id", "year");
-- Create "invoices" table
CREATE TABLE "invoices" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "pass_id" uuid NULL, "subscription_id" uuid NULL, "processor_invoice_id" character varying NULL, "year" bigint NOT NULL, "sequence" bigint NOT NULL, "number" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'sent', "lines" jsonb NOT NULL, "subtotal_minor" bigint NOT NULL, "discount_minor" bigint NOT NULL DEFAULT 0, "vat_minor" bigint NOT NULL, "total_minor" bigint NOT NULL, "amount_paid_minor" bigint NOT NULL DEFAULT 0, "currency" character varying NOT NULL, "issued_at" timestamptz NOT NULL, "due_date" date NOT NULL, "period_start" timestamptz NULL, "period_end" timestamptz NULL, "paid_at" timestamptz NULL, "viewed_at" timestamptz NULL, "failed_at" timestamptz NULL, "failure_code" character varying NULL, "decline_code" character varying NULL, "attempt_count" bigint NOT NULL DEFAULT 0, "payment_intent_id" character varying NULL, "payment_id" uuid NULL, "settlement" character varying NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "invoices_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "invoices_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "invoice_organization_id" to table: "invoices"
CREATE INDEX "invoice_organization_id" ON "invoices" ("organization_id");
-- Create index "invoice_organization_id_member_id_created_at_id" to table: "invoices"
CREATE INDEX "invoice_organization_id_member_id_created_at_id" ON "invoices" ("organization_id", "member_id", "created_at", "id");
-- Create index "invoice_organization_id_status_failed_at" to table: "invoices"
CREATE INDEX "invoice_organization_id_status_failed_at" ON "invoices" ("organization_id", "status", "failed_at");
-- Create index "invoice_organization_id_year_sequence" to table: "invoices"
CREATE UNIQUE INDEX "invoice_organization_id_year_sequence" ON "invoices" ("organization_id", "year", "sequence");
-- Create index "invoice_processor_invoice_id" to table: "invoices"
CREATE UNIQUE INDEX "invoice_processor_invoice_id" ON "invoices" ("processor_invoice_id");
-- Create "subscriptions" table
CREATE TABLE "subscriptions" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "pass_id" uuid NOT NULL, "pass_type_id" uuid NOT NULL, "customer_id" character varying NOT NULL, "payment_method_id" character varying NULL, "processor_subscription_id" character varying NULL, "processor_status" character varying NOT NULL DEFAULT 'incomplete', "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "vat_rate_bp" bigint NOT NULL, "interval" character varying NOT NULL, "interval_count" bigint NOT NULL, "current_period_end" timestamptz NULL, "next_charge_at" timestamptz NULL, "canceled_at" timestamptz NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "subscriptions_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "subscriptions_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "subscription_organization_id" to table: "subscriptions"
CREATE INDEX "subscription_organization_id" ON "subscriptions" ("organization_id");
-- Create index "subscription_organization_id_member_id" to table: "subscriptions"
CREATE INDEX "subscription_organization_id_member_id" ON "subscriptions" ("organization_id", "member_id");
-- Create index "subscription_organization_id_pass_id" to table: "subscriptions"
CREATE UNIQUE INDEX "subscription_organization_id_pass_id" ON "subscriptions" ("organization_id", "pass_id");
-- Create index "subscription_processor_subscription_id" to table: "subscriptions"
CREATE UNIQUE INDEX "subscription_processor_subscription_id" ON "subscriptions" ("processor_subscription_id");
