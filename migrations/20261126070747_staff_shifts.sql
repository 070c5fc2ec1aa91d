-- Create "staff_shifts" table
CREATE TABLE "staff_shifts" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "starts_at" timestamptz NOT NULL, "ends_at" timestamptz NOT NULL, "note" character varying NULL, "organization_id" uuid NOT NULL, "staff_id" uuid NOT NULL, "location_id" uuid NULL, PRIMARY KEY ("id"), CONSTRAINT "staff_shifts_instructors_staff" FOREIGN KEY ("staff_id") REFERENCES "instructors" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "staff_shifts_locations_location" FOREIGN KEY ("location_id") REFERENCES "locations" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "staff_shifts_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "staffshift_organization_id" to table: "staff_shifts"
CREATE INDEX "staffshift_organization_id" ON "staff_shifts" ("organization_id");
-- Create index "staffshift_organization_id_staff_id_starts_at" to table: "staff_shifts"
CREATE INDEX "staffshift_organization_id_staff_id_starts_at" ON "staff_shifts" ("organization_id", "staff_id", "starts_at");
-- Create index "staffshift_organization_id_starts_at" to table: "staff_shifts"
CREATE INDEX "staffshift_organization_id_starts_at" ON "staff_shifts" ("organization_id", "starts_at");
