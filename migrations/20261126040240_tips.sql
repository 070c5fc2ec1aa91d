-- Create "tips" table
CREATE TABLE "tips" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "source_type" character varying NOT NULL, "source_id" uuid NOT NULL, "instructor_id" uuid NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "message" character varying NOT NULL DEFAULT '', "anonymous" boolean NOT NULL DEFAULT false, "status" character varying NOT NULL DEFAULT 'pending', "payment_intent_id" character varying NULL, "request_key" character varying NULL, "paid_at" timestamptz NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "tips_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "tips_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "tip_organization_id" to table: "tips"
CREATE INDEX "tip_organization_id" ON "tips" ("organization_id");
-- Create index "tip_organization_id_member_id_request_key" to table: "tips"
CREATE UNIQUE INDEX "tip_organization_id_member_id_request_key" ON "tips" ("organization_id", "member_id", "request_key");
-- Create index "tip_payment_intent_id" to table: "tips"
CREATE UNIQUE INDEX "tip_payment_intent_id" ON "tips" ("payment_intent_id");
