-- Create "guest_invites" table
CREATE TABLE "guest_invites" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "token_hash" character varying NOT NULL, "payer" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'held', "waitlist_position" bigint NULL, "price_minor" bigint NOT NULL, "compare_at_minor" bigint NULL, "currency" character varying NOT NULL, "return_base_url" character varying NOT NULL, "guest_name" character varying NOT NULL DEFAULT '', "guest_email" character varying NOT NULL DEFAULT '', "request_key" character varying NOT NULL, "spot" bigint NOT NULL, "hold_expires_at" timestamptz NOT NULL, "claimed_user_id" uuid NULL, "payment_intent_id" character varying NULL, "payment_id" uuid NULL, "paid_at" timestamptz NULL, "cancelled_at" timestamptz NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, "class_instance_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "guest_invites_class_instances_class_instance" FOREIGN KEY ("class_instance_id") REFERENCES "class_instances" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "guest_invites_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "guest_invites_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "guestinvite_organization_id" to table: "guest_invites"
CREATE INDEX "guestinvite_organization_id" ON "guest_invites" ("organization_id");
-- Create index "guestinvite_organization_id_class_instance_id_status" to table: "guest_invites"
CREATE INDEX "guestinvite_organization_id_class_instance_id_status" ON "guest_invites" ("organization_id", "class_instance_id", "status");
-- Create index "guestinvite_organization_id_member_id_request_key_spot" to table: "guest_invites"
CREATE UNIQUE INDEX "guestinvite_organization_id_member_id_request_key_spot" ON "guest_invites" ("organization_id", "member_id", "request_key", "spot");
-- Create index "guestinvite_status_hold_expires_at" to table: "guest_invites"
CREATE INDEX "guestinvite_status_hold_expires_at" ON "guest_invites" ("status", "hold_expires_at");
-- Create index "guestinvite_token_hash" to table: "guest_invites"
CREATE UNIQUE INDEX "guestinvite_token_hash" ON "guest_invites" ("token_hash");
