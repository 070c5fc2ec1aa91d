-- Create "loyalty_prices" table
CREATE TABLE "loyalty_prices" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "member_id" uuid NOT NULL, "user_id" uuid NOT NULL, "pass_type_id" uuid NOT NULL, "pass_id" uuid NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "reason" character varying NULL, "status" character varying NOT NULL DEFAULT 'active', "created_by" uuid NULL, "revoked_at" timestamptz NULL, "revoke_reason" character varying NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "loyalty_prices_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "loyaltyprice_organization_id" to table: "loyalty_prices"
CREATE INDEX "loyaltyprice_organization_id" ON "loyalty_prices" ("organization_id");
-- Create index "loyaltyprice_organization_id_member_id_pass_type_id" to table: "loyalty_prices"
CREATE INDEX "loyaltyprice_organization_id_member_id_pass_type_id" ON "loyalty_prices" ("organization_id", "member_id", "pass_type_id");
