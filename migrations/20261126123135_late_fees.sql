-- Create "late_fee_policies" table
CREATE TABLE "late_fee_policies" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "currency" character varying NOT NULL, "amount_minor" bigint NOT NULL, "grace_days" bigint NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "late_fee_policies_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "latefeepolicy_organization_id" to table: "late_fee_policies"
CREATE INDEX "latefeepolicy_organization_id" ON "late_fee_policies" ("organization_id");
-- Create index "latefeepolicy_organization_id_currency" to table: "late_fee_policies"
CREATE UNIQUE INDEX "latefeepolicy_organization_id_currency" ON "late_fee_policies" ("organization_id", "currency");
-- Create "late_fees" table
CREATE TABLE "late_fees" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "invoice_id" uuid NOT NULL, "pass_id" uuid NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'pending', "applied_at" timestamptz NOT NULL, "paid_at" timestamptz NULL, "payment_id" uuid NULL, "waived_at" timestamptz NULL, "waive_reason" character varying NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "late_fees_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "late_fees_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "latefee_organization_id" to table: "late_fees"
CREATE INDEX "latefee_organization_id" ON "late_fees" ("organization_id");
-- Create index "latefee_organization_id_invoice_id" to table: "late_fees"
CREATE UNIQUE INDEX "latefee_organization_id_invoice_id" ON "late_fees" ("organization_id", "invoice_id");
-- Create index "latefee_organization_id_status" to table: "late_fees"
CREATE INDEX "latefee_organization_id_status" ON "late_fees" ("organization_id", "status");
