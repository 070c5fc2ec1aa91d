-- Create "favorite_venues" table
CREATE TABLE "favorite_venues" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "venue_id" uuid NOT NULL, PRIMARY KEY ("id"));
-- Create index "favoritevenue_user_id_venue_id" to table: "favorite_venues"
CREATE UNIQUE INDEX "favoritevenue_user_id_venue_id" ON "favorite_venues" ("user_id", "venue_id");
