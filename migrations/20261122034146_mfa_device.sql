-- Create "device_authorizations" table
CREATE TABLE "device_authorizations" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "device_code_hash" bytea NOT NULL, "user_code" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'pending', "user_id" uuid NULL, "attempts" bigint NOT NULL DEFAULT 0, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- Create index "device_authorizations_device_code_hash_key" to table: "device_authorizations"
CREATE UNIQUE INDEX "device_authorizations_device_code_hash_key" ON "device_authorizations" ("device_code_hash");
-- Create index "device_authorizations_user_code_key" to table: "device_authorizations"
CREATE UNIQUE INDEX "device_authorizations_user_code_key" ON "device_authorizations" ("user_code");
-- Create "mfa_backup_codes" table
CREATE TABLE "mfa_backup_codes" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "hash" bytea NOT NULL, "used_at" timestamptz NULL, PRIMARY KEY ("id"));
-- Create index "mfabackupcode_user_id_hash" to table: "mfa_backup_codes"
CREATE UNIQUE INDEX "mfabackupcode_user_id_hash" ON "mfa_backup_codes" ("user_id", "hash");
-- Create "mfa_challenges" table
CREATE TABLE "mfa_challenges" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "session_id" uuid NOT NULL, "factor_id" uuid NOT NULL, "expires_at" timestamptz NOT NULL, "used_at" timestamptz NULL, PRIMARY KEY ("id"));
-- Create index "mfachallenge_user_id" to table: "mfa_challenges"
CREATE INDEX "mfachallenge_user_id" ON "mfa_challenges" ("user_id");
-- Create "mfa_factors" table
CREATE TABLE "mfa_factors" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "user_id" uuid NOT NULL, "type" character varying NOT NULL DEFAULT 'totp', "secret" character varying NOT NULL, "confirmed_at" timestamptz NULL, "last_step" bigint NOT NULL DEFAULT 0, PRIMARY KEY ("id"));
-- Create index "mfafactor_user_id" to table: "mfa_factors"
CREATE INDEX "mfafactor_user_id" ON "mfa_factors" ("user_id");
