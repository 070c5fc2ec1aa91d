-- Modify "locations" table
ALTER TABLE "locations" ADD COLUMN "image_url" character varying NULL;
