-- Create "desk_charges" table
CREATE TABLE "desk_charges" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "request_key" character varying NOT NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "vat_minor" bigint NOT NULL DEFAULT 0, "vat_rate_bp" bigint NOT NULL DEFAULT 0, "payment_method_id" character varying NOT NULL, "description" character varying NOT NULL DEFAULT '', "set_as_default" boolean NOT NULL DEFAULT false, "staff_user_id" uuid NULL, "status" character varying NOT NULL DEFAULT 'open', "payment_intent_id" character varying NULL, "payment_id" uuid NULL, "paid_at" timestamptz NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "desk_charges_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "desk_charges_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "deskcharge_organization_id" to table: "desk_charges"
CREATE INDEX "deskcharge_organization_id" ON "desk_charges" ("organization_id");
-- Create index "deskcharge_organization_id_member_id_request_key" to table: "desk_charges"
CREATE UNIQUE INDEX "deskcharge_organization_id_member_id_request_key" ON "desk_charges" ("organization_id", "member_id", "request_key");
-- Create index "deskcharge_payment_intent_id" to table: "desk_charges"
CREATE UNIQUE INDEX "deskcharge_payment_intent_id" ON "desk_charges" ("payment_intent_id");
