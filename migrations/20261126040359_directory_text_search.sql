-- Create index "organization_city_trgm" to table: "organizations"
CREATE INDEX "organization_city_trgm" ON "organizations" USING gin ("city" gin_trgm_ops);
-- Create index "organization_name_trgm" to table: "organizations"
CREATE INDEX "organization_name_trgm" ON "organizations" USING gin ("name" gin_trgm_ops);
-- Create index "organization_slug_trgm" to table: "organizations"
CREATE INDEX "organization_slug_trgm" ON "organizations" USING gin ("slug" gin_trgm_ops);
