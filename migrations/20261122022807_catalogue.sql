-- Modify "brands" table
ALTER TABLE "brands" ADD COLUMN "secondary_color" character varying NULL, ADD COLUMN "tagline" character varying NULL, ADD COLUMN "website" character varying NULL, ADD COLUMN "social_links" jsonb NULL, ADD COLUMN "sort_order" bigint NOT NULL DEFAULT 0;
-- Modify "organizations" table
ALTER TABLE "organizations" ADD COLUMN "description" character varying NULL, ADD COLUMN "website" character varying NULL, ADD COLUMN "email" character varying NULL, ADD COLUMN "phone" character varying NULL, ADD COLUMN "logo_url" character varying NULL, ADD COLUMN "world" character varying NOT NULL DEFAULT 'classes';
-- Create "idempotency_keys" table
CREATE TABLE "idempotency_keys" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "scope" character varying NOT NULL, "principal" character varying NOT NULL, "key" character varying NOT NULL, "request_hash" bytea NOT NULL, "state" character varying NOT NULL DEFAULT 'in_flight', "response_status" bigint NULL, "response_body" bytea NULL, "response_headers" jsonb NULL, "locked_until" timestamptz NOT NULL, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "idempotencykey_expires_at" to table: "idempotency_keys"
CREATE INDEX "idempotencykey_expires_at" ON "idempotency_keys" ("expires_at");
-- Create index "idempotencykey_scope_principal_key" to table: "idempotency_keys"
CREATE UNIQUE INDEX "idempotencykey_scope_principal_key" ON "idempotency_keys" ("scope", "principal", "key");
-- Create "addon_products" table
CREATE TABLE "addon_products" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "name" character varying NOT NULL, "category" character varying NOT NULL DEFAULT 'other', "description" character varying NULL, "price_minor" bigint NOT NULL, "currency" character varying NOT NULL, "active" boolean NOT NULL DEFAULT true, "sort_order" bigint NOT NULL DEFAULT 0, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "addon_products_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "addonproduct_organization_id" to table: "addon_products"
CREATE INDEX "addonproduct_organization_id" ON "addon_products" ("organization_id");
-- Create index "addonproduct_organization_id_import_ref" to table: "addon_products"
CREATE UNIQUE INDEX "addonproduct_organization_id_import_ref" ON "addon_products" ("organization_id", "import_ref");
-- Create "amenities" table
CREATE TABLE "amenities" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "location_id" uuid NULL, "name" character varying NOT NULL, "icon" character varying NULL, "sort_order" bigint NOT NULL DEFAULT 0, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "amenities_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "amenity_organization_id" to table: "amenities"
CREATE INDEX "amenity_organization_id" ON "amenities" ("organization_id");
-- Create index "amenity_organization_id_import_ref" to table: "amenities"
CREATE UNIQUE INDEX "amenity_organization_id_import_ref" ON "amenities" ("organization_id", "import_ref");
-- Create "gift_cards" table
CREATE TABLE "gift_cards" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "code" character varying NOT NULL, "gift_type" character varying NOT NULL DEFAULT 'amount', "initial_amount_minor" bigint NOT NULL, "remaining_amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'active', "expires_at" timestamptz NULL, "sender_name" character varying NULL, "gift_description" character varying NULL, "pass_type_id" uuid NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "gift_cards_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "giftcard_organization_id" to table: "gift_cards"
CREATE INDEX "giftcard_organization_id" ON "gift_cards" ("organization_id");
-- Create index "giftcard_organization_id_code" to table: "gift_cards"
CREATE UNIQUE INDEX "giftcard_organization_id_code" ON "gift_cards" ("organization_id", "code");
-- Create index "giftcard_organization_id_import_ref" to table: "gift_cards"
CREATE UNIQUE INDEX "giftcard_organization_id_import_ref" ON "gift_cards" ("organization_id", "import_ref");
-- Create "opening_hours" table
CREATE TABLE "opening_hours" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "location_id" uuid NULL, "weekday" bigint NOT NULL, "opens_at" character varying NULL, "closes_at" character varying NULL, "closed" boolean NOT NULL DEFAULT false, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "opening_hours_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "openinghours_organization_id" to table: "opening_hours"
CREATE INDEX "openinghours_organization_id" ON "opening_hours" ("organization_id");
-- Create index "openinghours_organization_id_import_ref" to table: "opening_hours"
CREATE UNIQUE INDEX "openinghours_organization_id_import_ref" ON "opening_hours" ("organization_id", "import_ref");
-- Create index "openinghours_organization_id_location_id_weekday" to table: "opening_hours"
CREATE INDEX "openinghours_organization_id_location_id_weekday" ON "opening_hours" ("organization_id", "location_id", "weekday");
-- Create "photos" table
CREATE TABLE "photos" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "location_id" uuid NULL, "brand_id" uuid NULL, "url" character varying NOT NULL, "caption" character varying NULL, "sort_order" bigint NOT NULL DEFAULT 0, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "photos_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "photo_organization_id" to table: "photos"
CREATE INDEX "photo_organization_id" ON "photos" ("organization_id");
-- Create index "photo_organization_id_import_ref" to table: "photos"
CREATE UNIQUE INDEX "photo_organization_id_import_ref" ON "photos" ("organization_id", "import_ref");
