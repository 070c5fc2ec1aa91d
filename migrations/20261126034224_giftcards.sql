-- Create "gift_card_movements" table
CREATE TABLE "gift_card_movements" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "balance_after_minor" bigint NOT NULL, "member_id" uuid NULL, "order_id" uuid NULL, "pass_id" uuid NULL, "credit_id" uuid NULL, "organization_id" uuid NOT NULL, "gift_card_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "gift_card_movements_gift_cards_gift_card" FOREIGN KEY ("gift_card_id") REFERENCES "gift_cards" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "gift_card_movements_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "giftcardmovement_organization_id" to table: "gift_card_movements"
CREATE INDEX "giftcardmovement_organization_id" ON "gift_card_movements" ("organization_id");
-- Create index "giftcardmovement_organization_id_gift_card_id_created_at" to table: "gift_card_movements"
CREATE INDEX "giftcardmovement_organization_id_gift_card_id_created_at" ON "gift_card_movements" ("organization_id", "gift_card_id", "created_at");
-- Create "gift_card_orders" table
CREATE TABLE "gift_card_orders" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "request_key" character varying NOT NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "vat_minor" bigint NOT NULL DEFAULT 0, "recipient_email" character varying NOT NULL, "recipient_name" character varying NOT NULL DEFAULT '', "sender_name" character varying NOT NULL DEFAULT '', "message" character varying NOT NULL DEFAULT '', "deliver_at" timestamptz NOT NULL, "status" character varying NOT NULL DEFAULT 'open', "payment_intent_id" character varying NULL, "gift_card_id" uuid NULL, "payment_id" uuid NULL, "paid_at" timestamptz NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "gift_card_orders_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "gift_card_orders_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "giftcardorder_organization_id" to table: "gift_card_orders"
CREATE INDEX "giftcardorder_organization_id" ON "gift_card_orders" ("organization_id");
-- Create index "giftcardorder_organization_id_member_id_request_key" to table: "gift_card_orders"
CREATE UNIQUE INDEX "giftcardorder_organization_id_member_id_request_key" ON "gift_card_orders" ("organization_id", "member_id", "request_key");
-- Create index "giftcardorder_payment_intent_id" to table: "gift_card_orders"
CREATE UNIQUE INDEX "giftcardorder_payment_intent_id" ON "gift_card_orders" ("payment_intent_id");
-- Create "member_credits" table
CREATE TABLE "member_credits" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "source" character varying NOT NULL, "gift_card_id" uuid NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "member_credits_members_member" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "member_credits_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "membercredit_organization_id" to table: "member_credits"
CREATE INDEX "membercredit_organization_id" ON "member_credits" ("organization_id");
-- Create index "membercredit_organization_id_member_id_currency" to table: "member_credits"
CREATE INDEX "membercredit_organization_id_member_id_currency" ON "member_credits" ("organization_id", "member_id", "currency");
