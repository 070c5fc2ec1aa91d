-- Modify "users" table
ALTER TABLE "users" ADD COLUMN "marketing_consent" boolean NOT NULL DEFAULT false;
-- Create "events" table
CREATE TABLE "events" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "type" character varying NOT NULL, "payload" jsonb NOT NULL, "delivered_at" timestamptz NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "events_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "event_delivered_at_created_at" to table: "events"
CREATE INDEX "event_delivered_at_created_at" ON "events" ("delivered_at", "created_at");
-- Create index "event_organization_id" to table: "events"
CREATE INDEX "event_organization_id" ON "events" ("organization_id");
-- Create index "event_organization_id_created_at" to table: "events"
CREATE INDEX "event_organization_id_created_at" ON "events" ("organization_id", "created_at");
