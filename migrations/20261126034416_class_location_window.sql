-- Create index "classinstance_organization_id_location_id_start_time" to table: "class_instances"
CREATE INDEX "classinstance_organization_id_location_id_start_time" ON "class_instances" ("organization_id", "location_id", "start_time");
