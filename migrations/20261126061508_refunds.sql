-- Create "refund_reviews" table
CREATE TABLE "refund_reviews" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "payment_id" uuid NOT NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "refundable_minor" bigint NOT NULL, "confirmation_phrase" character varying NOT NULL, "created_by_user_id" uuid NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "refund_reviews_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "refundreview_organization_id" to table: "refund_reviews"
CREATE INDEX "refundreview_organization_id" ON "refund_reviews" ("organization_id");
-- Create index "refundreview_organization_id_payment_id_created_at" to table: "refund_reviews"
CREATE INDEX "refundreview_organization_id_payment_id_created_at" ON "refund_reviews" ("organization_id", "payment_id", "created_at");
-- Create "refunds" table
CREATE TABLE "refunds" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "review_id" uuid NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'pending', "origin" character varying NOT NULL DEFAULT 'staff', "destination" character varying NOT NULL, "reason" character varying NOT NULL DEFAULT '', "client_receipt_comment" character varying NOT NULL DEFAULT '', "method_reference" character varying NOT NULL DEFAULT '', "notify_client" boolean NOT NULL DEFAULT false, "receipt_channels" jsonb NULL, "processor_refund_id" character varying NULL, "failure_code" character varying NULL, "request_key" character varying NULL, "created_by_user_id" uuid NULL, "refunded_at" timestamptz NULL, "organization_id" uuid NOT NULL, "payment_id" uuid NOT NULL, "member_id" uuid NULL, PRIMARY KEY ("id"), CONSTRAINT "refunds_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "refunds_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "refunds_payments_payment" FOREIGN KEY ("payment_id") REFERENCES "payments" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "refund_organization_id" to table: "refunds"
CREATE INDEX "refund_organization_id" ON "refunds" ("organization_id");
-- Create index "refund_organization_id_member_id_created_at_id" to table: "refunds"
CREATE INDEX "refund_organization_id_member_id_created_at_id" ON "refunds" ("organization_id", "member_id", "created_at", "id");
-- Create index "refund_organization_id_payment_id" to table: "refunds"
CREATE INDEX "refund_organization_id_payment_id" ON "refunds" ("organization_id", "payment_id");
-- Create index "refund_organization_id_request_key" to table: "refunds"
CREATE UNIQUE INDEX "refund_organization_id_request_key" ON "refunds" ("organization_id", "request_key");
-- Create index "refund_processor_refund_id" to table: "refunds"
CREATE UNIQUE INDEX "refund_processor_refund_id" ON "refunds" ("processor_refund_id");
