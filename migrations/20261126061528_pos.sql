-- Create "pos_day_closes" table
CREATE TABLE "pos_day_closes" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "business_date" date NOT NULL, "currency" character varying NOT NULL, "totals" jsonb NOT NULL, "opening_float_minor" bigint NOT NULL DEFAULT 0, "expected_cash_minor" bigint NOT NULL, "counted_cash_minor" bigint NOT NULL, "difference_minor" bigint NOT NULL, "note" character varying NOT NULL DEFAULT '', "closed_by_user_id" uuid NOT NULL, "closed_at" timestamptz NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "pos_day_closes_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "posdayclose_organization_id" to table: "pos_day_closes"
CREATE INDEX "posdayclose_organization_id" ON "pos_day_closes" ("organization_id");
-- Create index "posdayclose_organization_id_business_date" to table: "pos_day_closes"
CREATE UNIQUE INDEX "posdayclose_organization_id_business_date" ON "pos_day_closes" ("organization_id", "business_date");
-- Create "pos_returns" table
CREATE TABLE "pos_returns" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "request_key" character varying NOT NULL, "body_digest" character varying NOT NULL, "sale_id" uuid NULL, "lines" jsonb NOT NULL, "reason" character varying NOT NULL, "user_id" uuid NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "pos_returns_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "posreturn_organization_id" to table: "pos_returns"
CREATE INDEX "posreturn_organization_id" ON "pos_returns" ("organization_id");
-- Create index "posreturn_organization_id_request_key" to table: "pos_returns"
CREATE UNIQUE INDEX "posreturn_organization_id_request_key" ON "pos_returns" ("organization_id", "request_key");
-- Create index "posreturn_organization_id_sale_id" to table: "pos_returns"
CREATE INDEX "posreturn_organization_id_sale_id" ON "pos_returns" ("organization_id", "sale_id");
-- Create "pos_sales" table
CREATE TABLE "pos_sales" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "request_key" character varying NOT NULL, "kind" character varying NOT NULL, "method" character varying NOT NULL, "currency" character varying NOT NULL, "subtotal_minor" bigint NOT NULL, "discount_minor" bigint NOT NULL DEFAULT 0, "vat_minor" bigint NOT NULL, "vat_rate_bp" bigint NOT NULL, "total_minor" bigint NOT NULL, "lines" jsonb NOT NULL, "member_id" uuid NULL, "payment_id" uuid NOT NULL, "pass_id" uuid NULL, "gift_card_id" uuid NULL, "sold_by_user_id" uuid NOT NULL, "business_date" date NOT NULL, "promo_exception_kind" character varying NULL, "promo_exception_reason" character varying NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "pos_sales_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "possale_organization_id" to table: "pos_sales"
CREATE INDEX "possale_organization_id" ON "pos_sales" ("organization_id");
-- Create index "possale_organization_id_business_date" to table: "pos_sales"
CREATE INDEX "possale_organization_id_business_date" ON "pos_sales" ("organization_id", "business_date");
-- Create index "possale_organization_id_sold_by_user_id_request_key" to table: "pos_sales"
CREATE UNIQUE INDEX "possale_organization_id_sold_by_user_id_request_key" ON "pos_sales" ("organization_id", "sold_by_user_id", "request_key");
-- Create "products" table
CREATE TABLE "products" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "name" character varying NOT NULL, "sku" character varying NULL, "stock_on_hand" bigint NOT NULL DEFAULT 0, "active" boolean NOT NULL DEFAULT true, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "products_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "product_organization_id" to table: "products"
CREATE INDEX "product_organization_id" ON "products" ("organization_id");
-- Create index "product_organization_id_sku" to table: "products"
CREATE UNIQUE INDEX "product_organization_id_sku" ON "products" ("organization_id", "sku");
-- Create "product_prices" table
CREATE TABLE "product_prices" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "currency" character varying NOT NULL, "price_minor" bigint NOT NULL, "version" bigint NOT NULL DEFAULT 1, "organization_id" uuid NOT NULL, "product_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "product_prices_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "product_prices_products_product" FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "productprice_organization_id" to table: "product_prices"
CREATE INDEX "productprice_organization_id" ON "product_prices" ("organization_id");
-- Create index "productprice_organization_id_product_id_currency" to table: "product_prices"
CREATE UNIQUE INDEX "productprice_organization_id_product_id_currency" ON "product_prices" ("organization_id", "product_id", "currency");
-- Create "stock_movements" table
CREATE TABLE "stock_movements" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "delta" bigint NOT NULL, "stock_after" bigint NOT NULL, "sale_id" uuid NULL, "return_id" uuid NULL, "user_id" uuid NULL, "reason" character varying NOT NULL DEFAULT '', "organization_id" uuid NOT NULL, "product_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "stock_movements_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "stock_movements_products_product" FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "stockmovement_organization_id" to table: "stock_movements"
CREATE INDEX "stockmovement_organization_id" ON "stock_movements" ("organization_id");
-- Create index "stockmovement_organization_id_product_id_created_at" to table: "stock_movements"
CREATE INDEX "stockmovement_organization_id_product_id_created_at" ON "stock_movements" ("organization_id", "product_id", "created_at");
