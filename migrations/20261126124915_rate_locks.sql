-- Create "rate_locks" table
CREATE TABLE "rate_locks" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "pass_id" uuid NOT NULL, "member_id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "amount_minor" bigint NOT NULL, "base_amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "locked_until" date NOT NULL, "reason" character varying NULL, "status" character varying NOT NULL DEFAULT 'active', "applied" boolean NOT NULL DEFAULT false, "created_by" uuid NULL, "ended_at" timestamptz NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "rate_locks_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "ratelock_organization_id" to table: "rate_locks"
CREATE INDEX "ratelock_organization_id" ON "rate_locks" ("organization_id");
-- Create index "ratelock_organization_id_member_id" to table: "rate_locks"
CREATE INDEX "ratelock_organization_id_member_id" ON "rate_locks" ("organization_id", "member_id");
-- Create index "ratelock_organization_id_pass_id" to table: "rate_locks"
CREATE INDEX "ratelock_organization_id_pass_id" ON "rate_locks" ("organization_id", "pass_id");
