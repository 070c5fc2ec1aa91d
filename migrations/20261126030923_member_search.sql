-- Modify "members" table
ALTER TABLE "members" ADD COLUMN "search_text" character varying NULL, ADD COLUMN "search_first" character varying NULL, ADD COLUMN "search_last" character varying NULL;
-- Create index "member_search_first" to table: "members"
CREATE INDEX "member_search_first" ON "members" ("organization_id", "search_first" text_pattern_ops, "id");
-- Create index "member_search_last" to table: "members"
CREATE INDEX "member_search_last" ON "members" ("organization_id", "search_last" text_pattern_ops, "id");
-- Create index "member_search_text" to table: "members"
CREATE INDEX "member_search_text" ON "members" USING gist ("organization_id", "search_text" gist_trgm_ops(siglen=256));
-- Create index "member_user_id" to table: "members"
CREATE INDEX "member_user_id" ON "members" ("user_id");
