-- Modify "pass_types" table
ALTER TABLE "pass_types" ADD COLUMN "share_slots" bigint NOT NULL DEFAULT 0;
-- Create "pass_shares" table
CREATE TABLE "pass_shares" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "pass_id" uuid NOT NULL, "owner_member_id" uuid NOT NULL, "member_id" uuid NULL, "email" character varying NULL, "monthly_cap" bigint NULL, "status" character varying NOT NULL, "created_by" uuid NULL, "claimed_at" timestamptz NULL, "ended_at" timestamptz NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "pass_shares_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "passshare_organization_id" to table: "pass_shares"
CREATE INDEX "passshare_organization_id" ON "pass_shares" ("organization_id");
-- Create index "passshare_organization_id_email" to table: "pass_shares"
CREATE INDEX "passshare_organization_id_email" ON "pass_shares" ("organization_id", "email");
-- Create index "passshare_organization_id_member_id" to table: "pass_shares"
CREATE INDEX "passshare_organization_id_member_id" ON "pass_shares" ("organization_id", "member_id");
-- Create index "passshare_organization_id_pass_id" to table: "pass_shares"
CREATE INDEX "passshare_organization_id_pass_id" ON "pass_shares" ("organization_id", "pass_id");
