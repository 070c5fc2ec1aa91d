-- Create "installation_secrets" table
CREATE TABLE "installation_secrets" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "name" character varying NOT NULL, "value" character varying NOT NULL, PRIMARY KEY ("id"));
-- Create index "installation_secrets_name_key" to table: "installation_secrets"
CREATE UNIQUE INDEX "installation_secrets_name_key" ON "installation_secrets" ("name");
