-- Create "auth_codes" table
CREATE TABLE "auth_codes" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "purpose" character varying NOT NULL, "hash" bytea NOT NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, "attempts" bigint NOT NULL DEFAULT 0, "user_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "auth_codes_users_auth_codes" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "authcode_user_id_purpose" to table: "auth_codes"
CREATE INDEX "authcode_user_id_purpose" ON "auth_codes" ("user_id", "purpose");
-- Create "sessions" table
CREATE TABLE "sessions" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "auth_time" timestamptz NOT NULL, "amr" jsonb NULL, "expires_at" timestamptz NOT NULL, "last_used_at" timestamptz NULL, "revoked_at" timestamptz NULL, "revoked_reason" character varying NULL, "mfa_at" timestamptz NULL, "active_organization_id" uuid NULL, "user_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "sessions_users_sessions" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "session_user_id" to table: "sessions"
CREATE INDEX "session_user_id" ON "sessions" ("user_id");
-- Create "refresh_tokens" table
CREATE TABLE "refresh_tokens" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "lookup" character varying NOT NULL, "hash" bytea NOT NULL, "parent_id" uuid NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, "session_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "refresh_tokens_sessions_refresh_tokens" FOREIGN KEY ("session_id") REFERENCES "sessions" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "refresh_tokens_lookup_key" to table: "refresh_tokens"
CREATE UNIQUE INDEX "refresh_tokens_lookup_key" ON "refresh_tokens" ("lookup");
-- Create index "refreshtoken_session_id" to table: "refresh_tokens"
CREATE INDEX "refreshtoken_session_id" ON "refresh_tokens" ("session_id");
