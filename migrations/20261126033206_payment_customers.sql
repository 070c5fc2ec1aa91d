-- Create "payment_customers" table
CREATE TABLE "payment_customers" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "account_id" character varying NOT NULL, "customer_id" character varying NOT NULL, "default_payment_method_id" character varying NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "payment_customers_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "payment_customers_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "paymentcustomer_customer_id" to table: "payment_customers"
CREATE UNIQUE INDEX "paymentcustomer_customer_id" ON "payment_customers" ("customer_id");
-- Create index "paymentcustomer_organization_id" to table: "payment_customers"
CREATE INDEX "paymentcustomer_organization_id" ON "payment_customers" ("organization_id");
-- Create index "paymentcustomer_organization_id_member_id_account_id" to table: "payment_customers"
CREATE UNIQUE INDEX "paymentcustomer_organization_id_member_id_account_id" ON "payment_customers" ("organization_id", "member_id", "account_id");
