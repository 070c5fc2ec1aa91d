-- Create "calendar_events" table
CREATE TABLE "calendar_events" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "title" character varying NOT NULL, "starts_at" timestamptz NOT NULL, "ends_at" timestamptz NOT NULL, "status" character varying NOT NULL DEFAULT 'scheduled', "location_id" uuid NULL, "room_id" uuid NULL, "notes" character varying NOT NULL DEFAULT '', "created_by" character varying NOT NULL DEFAULT '', "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "calendar_events_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "calendarevent_organization_id" to table: "calendar_events"
CREATE INDEX "calendarevent_organization_id" ON "calendar_events" ("organization_id");
-- Create index "calendarevent_organization_id_starts_at" to table: "calendar_events"
CREATE INDEX "calendarevent_organization_id_starts_at" ON "calendar_events" ("organization_id", "starts_at");
