-- Create "pos_favorites" table
CREATE TABLE "pos_favorites" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "pinned" jsonb NOT NULL, "updated_by_user_id" uuid NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "pos_favorites_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "posfavorites_organization_id" to table: "pos_favorites"
CREATE INDEX "posfavorites_organization_id" ON "pos_favorites" ("organization_id");
-- Create index "posfavorites_organization_unique" to table: "pos_favorites"
CREATE UNIQUE INDEX "posfavorites_organization_unique" ON "pos_favorites" ("organization_id");
-- Create "staff_pins" table
CREATE TABLE "staff_pins" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "pin_hash" character varying NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "staff_pins_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "staffpin_organization_id" to table: "staff_pins"
CREATE INDEX "staffpin_organization_id" ON "staff_pins" ("organization_id");
-- Create index "staffpin_organization_id_user_id" to table: "staff_pins"
CREATE UNIQUE INDEX "staffpin_organization_id_user_id" ON "staff_pins" ("organization_id", "user_id");
