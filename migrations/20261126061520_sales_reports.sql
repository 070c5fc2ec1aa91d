-- Modify "payments" table
ALTER TABLE "payments" ADD COLUMN "method" character varying NOT NULL DEFAULT 'other', ADD COLUMN "brand_id" uuid NULL, ADD COLUMN "location_id" uuid NULL;
-- Create "sales_dailies" table
CREATE TABLE "sales_dailies" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "basis" character varying NOT NULL, "day" date NOT NULL, "currency" character varying NOT NULL, "method" character varying NOT NULL, "category" character varying NOT NULL, "brand_id" uuid NOT NULL, "location_id" uuid NOT NULL, "amount_minor" bigint NOT NULL, "payments" bigint NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "sales_dailies_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "salesdaily_organization_id" to table: "sales_dailies"
CREATE INDEX "salesdaily_organization_id" ON "sales_dailies" ("organization_id");
-- Create index "salesdaily_organization_id_bas_c500e9535be1ca97cfe40e2dd088ead3" to table: "sales_dailies"
CREATE UNIQUE INDEX "salesdaily_organization_id_bas_c500e9535be1ca97cfe40e2dd088ead3" ON "sales_dailies" ("organization_id", "basis", "day", "currency", "method", "category", "brand_id", "location_id");
