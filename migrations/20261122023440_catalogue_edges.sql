-- Create index "organization_lat_lng" to table: "organizations"
CREATE INDEX "organization_lat_lng" ON "organizations" ("lat", "lng");
-- Create index "organization_world_listed" to table: "organizations"
CREATE INDEX "organization_world_listed" ON "organizations" ("world", "listed");
-- Modify "amenities" table
ALTER TABLE "amenities" ADD CONSTRAINT "amenities_locations_amenities" FOREIGN KEY ("location_id") REFERENCES "locations" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "gift_cards" table
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_pass_types_gift_cards" FOREIGN KEY ("pass_type_id") REFERENCES "pass_types" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "opening_hours" table
ALTER TABLE "opening_hours" ADD CONSTRAINT "opening_hours_locations_opening_hours" FOREIGN KEY ("location_id") REFERENCES "locations" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
-- Modify "photos" table
ALTER TABLE "photos" ADD CONSTRAINT "photos_brands_photos" FOREIGN KEY ("brand_id") REFERENCES "brands" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, ADD CONSTRAINT "photos_locations_photos" FOREIGN KEY ("location_id") REFERENCES "locations" ("id") ON UPDATE NO ACTION ON DELETE SET NULL;
