-- Create "feedbacks" table
CREATE TABLE "feedbacks" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "instructor_id" uuid NULL, "rating" bigint NOT NULL, "comment" character varying NOT NULL DEFAULT '', "anonymous" boolean NOT NULL DEFAULT false, "tip_id" uuid NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, "booking_id" uuid NOT NULL, "class_instance_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "feedbacks_bookings_booking" FOREIGN KEY ("booking_id") REFERENCES "bookings" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "feedbacks_class_instances_class_instance" FOREIGN KEY ("class_instance_id") REFERENCES "class_instances" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "feedbacks_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "feedbacks_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "feedback_organization_id" to table: "feedbacks"
CREATE INDEX "feedback_organization_id" ON "feedbacks" ("organization_id");
-- Create index "feedback_organization_id_booking_id" to table: "feedbacks"
CREATE UNIQUE INDEX "feedback_organization_id_booking_id" ON "feedbacks" ("organization_id", "booking_id");
-- Create index "feedback_organization_id_class_instance_id" to table: "feedbacks"
CREATE INDEX "feedback_organization_id_class_instance_id" ON "feedbacks" ("organization_id", "class_instance_id");
-- Create index "feedback_organization_id_created_at_id" to table: "feedbacks"
CREATE INDEX "feedback_organization_id_created_at_id" ON "feedbacks" ("organization_id", "created_at", "id");
-- Create "notification_attachments" table
CREATE TABLE "notification_attachments" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "filename" character varying NOT NULL, "content_type" character varying NOT NULL, "data" bytea NOT NULL, "organization_id" uuid NOT NULL, "delivery_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "notification_attachments_notification_deliveries_delivery" FOREIGN KEY ("delivery_id") REFERENCES "notification_deliveries" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "notification_attachments_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "notificationattachment_delivery_id" to table: "notification_attachments"
CREATE INDEX "notificationattachment_delivery_id" ON "notification_attachments" ("delivery_id");
-- Create index "notificationattachment_organization_id" to table: "notification_attachments"
CREATE INDEX "notificationattachment_organization_id" ON "notification_attachments" ("organization_id");
