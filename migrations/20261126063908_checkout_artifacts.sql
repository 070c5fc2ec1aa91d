-- Create "artifact_signatures" table
CREATE TABLE "artifact_signatures" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "member_id" uuid NOT NULL, "document_id" uuid NOT NULL, "version_id" uuid NOT NULL, "kind" character varying NOT NULL, "signature_data" text NOT NULL DEFAULT '', "saved_signature_id" character varying NULL, "pass_type_slug" character varying NULL, "start_date" date NULL, "signed_at" timestamptz NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "artifact_signatures_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "artifactsignature_organization_652cfc8ca9603c07b4b0bbdf44eb98fb" to table: "artifact_signatures"
CREATE UNIQUE INDEX "artifactsignature_organization_652cfc8ca9603c07b4b0bbdf44eb98fb" ON "artifact_signatures" ("organization_id", "member_id", "document_id", "version_id");
-- Create index "artifactsignature_organization_id" to table: "artifact_signatures"
CREATE INDEX "artifactsignature_organization_id" ON "artifact_signatures" ("organization_id");
-- Create "checkout_documents" table
CREATE TABLE "checkout_documents" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "title" character varying NOT NULL, "body" text NOT NULL DEFAULT '', "version_id" uuid NOT NULL, "active" boolean NOT NULL DEFAULT true, "pass_type_ids" jsonb NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "checkout_documents_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "checkoutdocument_organization_id" to table: "checkout_documents"
CREATE INDEX "checkoutdocument_organization_id" ON "checkout_documents" ("organization_id");
-- Create index "checkoutdocument_organization_id_kind" to table: "checkout_documents"
CREATE INDEX "checkoutdocument_organization_id_kind" ON "checkout_documents" ("organization_id", "kind");
