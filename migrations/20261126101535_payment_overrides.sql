-- Create "payment_overrides" table
CREATE TABLE "payment_overrides" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "subscription_id" uuid NOT NULL, "pass_id" uuid NOT NULL, "period_start" timestamptz NOT NULL, "period_end" timestamptz NOT NULL, "amount_minor" bigint NOT NULL, "reason" character varying NULL, "status" character varying NOT NULL DEFAULT 'scheduled', "invoice_id" uuid NULL, "processor_item_id" character varying NULL, "processor_item_amount_minor" bigint NULL, "created_by" uuid NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "payment_overrides_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "paymentoverride_organization_id" to table: "payment_overrides"
CREATE INDEX "paymentoverride_organization_id" ON "payment_overrides" ("organization_id");
-- Create index "paymentoverride_organization_id_pass_id" to table: "payment_overrides"
CREATE INDEX "paymentoverride_organization_id_pass_id" ON "payment_overrides" ("organization_id", "pass_id");
-- Create index "paymentoverride_organization_id_subscription_id_period_start" to table: "payment_overrides"
CREATE UNIQUE INDEX "paymentoverride_organization_id_subscription_id_period_start" ON "payment_overrides" ("organization_id", "subscription_id", "period_start");
