-- Modify "members" table
ALTER TABLE "members" ADD COLUMN "search_first" character varying NULL, ADD COLUMN "search_last" character varying NULL, ADD COLUMN "search_email" character varying NULL, ADD COLUMN "search_phone" character varying NULL, ADD COLUMN "search_client" character varying NULL;
-- Create index "member_search_client" to table: "members"
CREATE INDEX "member_search_client" ON "members" ("organization_id", "search_client" text_pattern_ops, "id");
-- Create index "member_search_email" to table: "members"
CREATE INDEX "member_search_email" ON "members" ("organization_id", "search_email" text_pattern_ops, "id");
-- Create index "member_search_first" to table: "members"
CREATE INDEX "member_search_first" ON "members" ("organization_id", "search_first" text_pattern_ops, "id");
-- Create index "member_search_last" to table: "members"
CREATE INDEX "member_search_last" ON "members" ("organization_id", "search_last" text_pattern_ops, "id");
-- Create index "member_search_phone" to table: "members"
CREATE INDEX "member_search_phone" ON "members" ("organization_id", "search_phone" text_pattern_ops, "id");
-- Create index "member_user_id" to table: "members"
CREATE INDEX "member_user_id" ON "members" ("user_id");
