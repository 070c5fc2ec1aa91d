-- Create "notification_preferences" table
CREATE TABLE "notification_preferences" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "categories" jsonb NULL, "quiet_hours_enabled" boolean NOT NULL DEFAULT false, "quiet_hours_start" character varying NOT NULL DEFAULT '22:00', "quiet_hours_end" character varying NOT NULL DEFAULT '07:00', "quiet_hours_timezone" character varying NOT NULL DEFAULT '', PRIMARY KEY ("id"));
-- Create index "notificationpreference_user_id" to table: "notification_preferences"
CREATE UNIQUE INDEX "notificationpreference_user_id" ON "notification_preferences" ("user_id");
