-- Create "renewal_reminder_policies" table
CREATE TABLE "renewal_reminder_policies" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "days_before" jsonb NOT NULL, "preview_hash" character varying NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "renewal_reminder_policies_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "renewalreminderpolicy_one_per_venue" to table: "renewal_reminder_policies"
CREATE UNIQUE INDEX "renewalreminderpolicy_one_per_venue" ON "renewal_reminder_policies" ("organization_id");
-- Create index "renewalreminderpolicy_organization_id" to table: "renewal_reminder_policies"
CREATE INDEX "renewalreminderpolicy_organization_id" ON "renewal_reminder_policies" ("organization_id");
