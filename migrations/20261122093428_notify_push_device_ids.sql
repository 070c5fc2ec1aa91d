-- Modify "push_devices" table
ALTER TABLE "push_devices" ADD COLUMN "device_id" character varying NULL, ADD COLUMN "app_variant" character varying NOT NULL DEFAULT 'member';
-- Create index "pushdevice_organization_id_member_id_device_id" to table: "push_devices"
CREATE UNIQUE INDEX "pushdevice_organization_id_member_id_device_id" ON "push_devices" ("organization_id", "member_id", "device_id");
