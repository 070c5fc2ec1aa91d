-- Create "class_guest_prices" table
CREATE TABLE "class_guest_prices" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "set_by" uuid NULL, "organization_id" uuid NOT NULL, "class_instance_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "class_guest_prices_class_instances_class_instance" FOREIGN KEY ("class_instance_id") REFERENCES "class_instances" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "class_guest_prices_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "classguestprice_organization_id" to table: "class_guest_prices"
CREATE INDEX "classguestprice_organization_id" ON "class_guest_prices" ("organization_id");
-- Create index "classguestprice_organization_id_class_instance_id" to table: "class_guest_prices"
CREATE UNIQUE INDEX "classguestprice_organization_id_class_instance_id" ON "class_guest_prices" ("organization_id", "class_instance_id");
