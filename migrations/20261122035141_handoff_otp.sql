-- Create "handoff_codes" table
CREATE TABLE "handoff_codes" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "code_hash" bytea NOT NULL, "destination_host" character varying NOT NULL, "mfa_at" timestamptz NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, PRIMARY KEY ("id"));
-- Create index "handoff_codes_code_hash_key" to table: "handoff_codes"
CREATE UNIQUE INDEX "handoff_codes_code_hash_key" ON "handoff_codes" ("code_hash");
-- Create "otp_requests" table
CREATE TABLE "otp_requests" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "code_hash" bytea NOT NULL, "token_hash" bytea NULL, "code_challenge" character varying NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, "attempts" bigint NOT NULL DEFAULT 0, PRIMARY KEY ("id"));
-- Create index "otprequest_user_id" to table: "otp_requests"
CREATE INDEX "otprequest_user_id" ON "otp_requests" ("user_id");
