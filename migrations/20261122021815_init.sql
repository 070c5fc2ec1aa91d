-- Create "platform_settings" table
CREATE TABLE "platform_settings" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "key" character varying NOT NULL, "enabled" boolean NOT NULL DEFAULT false, "changed_by" character varying NULL, PRIMARY KEY ("id"));
-- Create index "platform_settings_key_key" to table: "platform_settings"
CREATE UNIQUE INDEX "platform_settings_key_key" ON "platform_settings" ("key");
-- Create "organizations" table
CREATE TABLE "organizations" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "name" character varying NOT NULL, "slug" character varying NOT NULL, "plan" character varying NOT NULL DEFAULT 'pro', "currency" character varying NOT NULL DEFAULT 'DKK', "timezone" character varying NOT NULL DEFAULT 'Europe/Copenhagen', "address" character varying NULL, "city" character varying NULL, "country" character varying NULL, "lat" double precision NULL, "lng" double precision NULL, "vat_exempt_age_threshold" bigint NULL, "listed" boolean NOT NULL DEFAULT true, PRIMARY KEY ("id"));
-- Create index "organizations_slug_key" to table: "organizations"
CREATE UNIQUE INDEX "organizations_slug_key" ON "organizations" ("slug");
-- Create "alerts" table
CREATE TABLE "alerts" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "severity" character varying NOT NULL DEFAULT 'info', "title" character varying NOT NULL, "message" character varying NOT NULL DEFAULT '', "resolved" boolean NOT NULL DEFAULT false, "resolved_at" timestamptz NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "alerts_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "alert_organization_id" to table: "alerts"
CREATE INDEX "alert_organization_id" ON "alerts" ("organization_id");
-- Create index "alert_organization_id_import_ref" to table: "alerts"
CREATE UNIQUE INDEX "alert_organization_id_import_ref" ON "alerts" ("organization_id", "import_ref");
-- Create index "alert_organization_id_resolved" to table: "alerts"
CREATE INDEX "alert_organization_id_resolved" ON "alerts" ("organization_id", "resolved");
-- Create "api_keys" table
CREATE TABLE "api_keys" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "name" character varying NOT NULL, "prefix" character varying NOT NULL, "secret_hash" bytea NOT NULL, "scopes" jsonb NOT NULL, "created_by_user_id" uuid NULL, "created_by_email" character varying NULL, "last_used_at" timestamptz NULL, "revoked_at" timestamptz NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "api_keys_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "api_keys_prefix_key" to table: "api_keys"
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys" ("prefix");
-- Create index "apikey_organization_id" to table: "api_keys"
CREATE INDEX "apikey_organization_id" ON "api_keys" ("organization_id");
-- Create "audit_logs" table
CREATE TABLE "audit_logs" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "actor" character varying NOT NULL, "actor_kind" character varying NOT NULL, "api_key_id" uuid NULL, "user_id" uuid NULL, "action" character varying NOT NULL, "target" character varying NOT NULL DEFAULT '', "outcome" character varying NOT NULL, "details" jsonb NULL, "duration_ms" bigint NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "audit_logs_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "auditlog_organization_id" to table: "audit_logs"
CREATE INDEX "auditlog_organization_id" ON "audit_logs" ("organization_id");
-- Create index "auditlog_organization_id_created_at" to table: "audit_logs"
CREATE INDEX "auditlog_organization_id_created_at" ON "audit_logs" ("organization_id", "created_at");
-- Create "brands" table
CREATE TABLE "brands" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "name" character varying NOT NULL, "slug" character varying NOT NULL, "description" character varying NULL, "color" character varying NULL, "logo_url" character varying NULL, "active" boolean NOT NULL DEFAULT true, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "brands_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "brand_organization_id" to table: "brands"
CREATE INDEX "brand_organization_id" ON "brands" ("organization_id");
-- Create index "brand_organization_id_import_ref" to table: "brands"
CREATE UNIQUE INDEX "brand_organization_id_import_ref" ON "brands" ("organization_id", "import_ref");
-- Create index "brand_organization_id_slug" to table: "brands"
CREATE UNIQUE INDEX "brand_organization_id_slug" ON "brands" ("organization_id", "slug");
-- Create "class_types" table
CREATE TABLE "class_types" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "name" character varying NOT NULL, "slug" character varying NULL, "description" character varying NULL, "duration_minutes" bigint NOT NULL DEFAULT 60, "color" character varying NULL, "active" boolean NOT NULL DEFAULT true, "brand_id" uuid NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "class_types_brands_class_types" FOREIGN KEY ("brand_id") REFERENCES "brands" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "class_types_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "classtype_organization_id" to table: "class_types"
CREATE INDEX "classtype_organization_id" ON "class_types" ("organization_id");
-- Create index "classtype_organization_id_import_ref" to table: "class_types"
CREATE UNIQUE INDEX "classtype_organization_id_import_ref" ON "class_types" ("organization_id", "import_ref");
-- Create "instructors" table
CREATE TABLE "instructors" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "first_name" character varying NOT NULL, "last_name" character varying NOT NULL DEFAULT '', "email" character varying NULL, "bio" character varying NULL, "photo_url" character varying NULL, "active" boolean NOT NULL DEFAULT true, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "instructors_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "instructor_organization_id" to table: "instructors"
CREATE INDEX "instructor_organization_id" ON "instructors" ("organization_id");
-- Create index "instructor_organization_id_import_ref" to table: "instructors"
CREATE UNIQUE INDEX "instructor_organization_id_import_ref" ON "instructors" ("organization_id", "import_ref");
-- Create "locations" table
CREATE TABLE "locations" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "name" character varying NOT NULL, "address" character varying NULL, "city" character varying NULL, "lat" double precision NULL, "lng" double precision NULL, "active" boolean NOT NULL DEFAULT true, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "locations_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "location_organization_id" to table: "locations"
CREATE INDEX "location_organization_id" ON "locations" ("organization_id");
-- Create index "location_organization_id_import_ref" to table: "locations"
CREATE UNIQUE INDEX "location_organization_id_import_ref" ON "locations" ("organization_id", "import_ref");
-- Create "rooms" table
CREATE TABLE "rooms" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "name" character varying NOT NULL, "capacity" bigint NOT NULL, "room_type" character varying NOT NULL DEFAULT 'studio', "active" boolean NOT NULL DEFAULT true, "floor_plan_url" character varying NULL, "location_id" uuid NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "rooms_locations_rooms" FOREIGN KEY ("location_id") REFERENCES "locations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "rooms_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "room_organization_id" to table: "rooms"
CREATE INDEX "room_organization_id" ON "rooms" ("organization_id");
-- Create index "room_organization_id_import_ref" to table: "rooms"
CREATE UNIQUE INDEX "room_organization_id_import_ref" ON "rooms" ("organization_id", "import_ref");
-- Create "class_instances" table
CREATE TABLE "class_instances" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "start_time" timestamptz NOT NULL, "end_time" timestamptz NOT NULL, "capacity" bigint NOT NULL, "status" character varying NOT NULL DEFAULT 'scheduled', "online" boolean NOT NULL DEFAULT false, "listed" boolean NOT NULL DEFAULT true, "workshop_entry_kind" character varying NULL, "workshop_entry_id" uuid NULL, "workshop_entry_slug" character varying NULL, "organization_id" uuid NOT NULL, "class_type_id" uuid NOT NULL, "instructor_id" uuid NULL, "location_id" uuid NULL, "room_id" uuid NULL, PRIMARY KEY ("id"), CONSTRAINT "class_instances_class_types_class_instances" FOREIGN KEY ("class_type_id") REFERENCES "class_types" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "class_instances_instructors_class_instances" FOREIGN KEY ("instructor_id") REFERENCES "instructors" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "class_instances_locations_class_instances" FOREIGN KEY ("location_id") REFERENCES "locations" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "class_instances_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "class_instances_rooms_class_instances" FOREIGN KEY ("room_id") REFERENCES "rooms" ("id") ON UPDATE NO ACTION ON DELETE SET NULL);
-- Create index "classinstance_organization_id" to table: "class_instances"
CREATE INDEX "classinstance_organization_id" ON "class_instances" ("organization_id");
-- Create index "classinstance_organization_id_import_ref" to table: "class_instances"
CREATE UNIQUE INDEX "classinstance_organization_id_import_ref" ON "class_instances" ("organization_id", "import_ref");
-- Create index "classinstance_organization_id_start_time" to table: "class_instances"
CREATE INDEX "classinstance_organization_id_start_time" ON "class_instances" ("organization_id", "start_time");
-- Create "users" table
CREATE TABLE "users" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "email" character varying NOT NULL, "first_name" character varying NOT NULL DEFAULT '', "last_name" character varying NOT NULL DEFAULT '', "phone" character varying NULL, "password_hash" character varying NULL, "account_state" character varying NOT NULL DEFAULT 'active', "country" character varying NULL, "city" character varying NULL, PRIMARY KEY ("id"));
-- Create index "user_email_trgm" to table: "users"
CREATE INDEX "user_email_trgm" ON "users" USING gin ("email" gin_trgm_ops);
-- Create index "user_first_name" to table: "users"
CREATE INDEX "user_first_name" ON "users" USING gin ("first_name" gin_trgm_ops);
-- Create index "user_last_name" to table: "users"
CREATE INDEX "user_last_name" ON "users" USING gin ("last_name" gin_trgm_ops);
-- Create index "users_email_key" to table: "users"
CREATE UNIQUE INDEX "users_email_key" ON "users" ("email");
-- Create "members" table
CREATE TABLE "members" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "role" character varying NOT NULL DEFAULT 'member', "status" character varying NOT NULL DEFAULT 'active', "client_display_id" character varying NULL, "permissions" jsonb NULL, "joined_at" timestamptz NULL, "organization_id" uuid NOT NULL, "user_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "members_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "members_users_members" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "member_client_display_id" to table: "members"
CREATE INDEX "member_client_display_id" ON "members" USING gin ("client_display_id" gin_trgm_ops);
-- Create index "member_organization_id" to table: "members"
CREATE INDEX "member_organization_id" ON "members" ("organization_id");
-- Create index "member_organization_id_client_display_id" to table: "members"
CREATE UNIQUE INDEX "member_organization_id_client_display_id" ON "members" ("organization_id", "client_display_id");
-- Create index "member_organization_id_import_ref" to table: "members"
CREATE UNIQUE INDEX "member_organization_id_import_ref" ON "members" ("organization_id", "import_ref");
-- Create index "member_organization_id_user_id" to table: "members"
CREATE UNIQUE INDEX "member_organization_id_user_id" ON "members" ("organization_id", "user_id");
-- Create "pass_types" table
CREATE TABLE "pass_types" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "name" character varying NOT NULL, "slug" character varying NOT NULL, "description" character varying NULL, "category" character varying NOT NULL, "price_minor" bigint NOT NULL, "currency" character varying NOT NULL, "is_recurring" boolean NOT NULL DEFAULT false, "billing_interval" character varying NULL, "billing_interval_count" bigint NULL, "pricing_mode" character varying NOT NULL DEFAULT 'fixed', "active_pricing_version_id" uuid NULL, "flexible_pricing_config" jsonb NULL, "clips" bigint NULL, "validity_days" bigint NULL, "grants_in_person" boolean NOT NULL DEFAULT true, "grants_online" boolean NOT NULL DEFAULT true, "active" boolean NOT NULL DEFAULT true, "listed" boolean NOT NULL DEFAULT true, "sort_order" bigint NOT NULL DEFAULT 0, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "pass_types_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "passtype_organization_id" to table: "pass_types"
CREATE INDEX "passtype_organization_id" ON "pass_types" ("organization_id");
-- Create index "passtype_organization_id_import_ref" to table: "pass_types"
CREATE UNIQUE INDEX "passtype_organization_id_import_ref" ON "pass_types" ("organization_id", "import_ref");
-- Create index "passtype_organization_id_slug" to table: "pass_types"
CREATE UNIQUE INDEX "passtype_organization_id_slug" ON "pass_types" ("organization_id", "slug");
-- Create "passes" table
CREATE TABLE "passes" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "status" character varying NOT NULL DEFAULT 'active', "valid_from" date NOT NULL, "valid_to" date NULL, "clips_remaining" bigint NULL, "member_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "pass_type_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "passes_members_passes" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "passes_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "passes_pass_types_passes" FOREIGN KEY ("pass_type_id") REFERENCES "pass_types" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "pass_organization_id" to table: "passes"
CREATE INDEX "pass_organization_id" ON "passes" ("organization_id");
-- Create index "pass_organization_id_import_ref" to table: "passes"
CREATE UNIQUE INDEX "pass_organization_id_import_ref" ON "passes" ("organization_id", "import_ref");
-- Create index "pass_organization_id_member_id" to table: "passes"
CREATE INDEX "pass_organization_id_member_id" ON "passes" ("organization_id", "member_id");
-- Create "bookings" table
CREATE TABLE "bookings" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "status" character varying NOT NULL DEFAULT 'confirmed', "waitlist_position" bigint NULL, "cancelled_at" timestamptz NULL, "checked_in_at" timestamptz NULL, "organization_id" uuid NOT NULL, "class_instance_id" uuid NOT NULL, "member_id" uuid NOT NULL, "pass_id" uuid NULL, PRIMARY KEY ("id"), CONSTRAINT "bookings_class_instances_bookings" FOREIGN KEY ("class_instance_id") REFERENCES "class_instances" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "bookings_members_bookings" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "bookings_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "bookings_passes_bookings" FOREIGN KEY ("pass_id") REFERENCES "passes" ("id") ON UPDATE NO ACTION ON DELETE SET NULL);
-- Create index "booking_organization_id" to table: "bookings"
CREATE INDEX "booking_organization_id" ON "bookings" ("organization_id");
-- Create index "booking_organization_id_class_instance_id_status" to table: "bookings"
CREATE INDEX "booking_organization_id_class_instance_id_status" ON "bookings" ("organization_id", "class_instance_id", "status");
-- Create index "booking_organization_id_import_ref" to table: "bookings"
CREATE UNIQUE INDEX "booking_organization_id_import_ref" ON "bookings" ("organization_id", "import_ref");
-- Create index "booking_organization_id_member_id" to table: "bookings"
CREATE INDEX "booking_organization_id_member_id" ON "bookings" ("organization_id", "member_id");
-- Create "feature_provisionings" table
CREATE TABLE "feature_provisionings" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "api_enabled" boolean NOT NULL DEFAULT false, "modules" jsonb NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "feature_provisionings_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "featureprovisioning_organization_id" to table: "feature_provisionings"
CREATE INDEX "featureprovisioning_organization_id" ON "feature_provisionings" ("organization_id");
-- Create index "featureprovisioning_organization_unique" to table: "feature_provisionings"
CREATE UNIQUE INDEX "featureprovisioning_organization_unique" ON "feature_provisionings" ("organization_id");
-- Create "flash_sales" table
CREATE TABLE "flash_sales" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "name" character varying NOT NULL, "commercial_rule" jsonb NOT NULL, "product_family" character varying NOT NULL, "starts_at" timestamptz NOT NULL, "ends_at" timestamptz NOT NULL, "placements" jsonb NOT NULL, "capacity_max" bigint NULL, "claimed_count" bigint NOT NULL DEFAULT 0, "presentation" jsonb NOT NULL, "cancelled_at" timestamptz NULL, "created_by_user_id" uuid NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "flash_sales_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- Create index "flashsale_organization_id" to table: "flash_sales"
CREATE INDEX "flashsale_organization_id" ON "flash_sales" ("organization_id");
-- Create index "flashsale_organization_id_starts_at_ends_at" to table: "flash_sales"
CREATE INDEX "flashsale_organization_id_starts_at_ends_at" ON "flash_sales" ("organization_id", "starts_at", "ends_at");
-- Create "flash_sale_applicable_pass_types" table
CREATE TABLE "flash_sale_applicable_pass_types" ("flash_sale_id" uuid NOT NULL, "pass_type_id" uuid NOT NULL, PRIMARY KEY ("flash_sale_id", "pass_type_id"), CONSTRAINT "flash_sale_applicable_pass_types_flash_sale_id" FOREIGN KEY ("flash_sale_id") REFERENCES "flash_sales" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "flash_sale_applicable_pass_types_pass_type_id" FOREIGN KEY ("pass_type_id") REFERENCES "pass_types" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create "pass_type_allowed_brands" table
CREATE TABLE "pass_type_allowed_brands" ("pass_type_id" uuid NOT NULL, "brand_id" uuid NOT NULL, PRIMARY KEY ("pass_type_id", "brand_id"), CONSTRAINT "pass_type_allowed_brands_brand_id" FOREIGN KEY ("brand_id") REFERENCES "brands" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "pass_type_allowed_brands_pass_type_id" FOREIGN KEY ("pass_type_id") REFERENCES "pass_types" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create "pass_type_allowed_class_types" table
CREATE TABLE "pass_type_allowed_class_types" ("pass_type_id" uuid NOT NULL, "class_type_id" uuid NOT NULL, PRIMARY KEY ("pass_type_id", "class_type_id"), CONSTRAINT "pass_type_allowed_class_types_class_type_id" FOREIGN KEY ("class_type_id") REFERENCES "class_types" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "pass_type_allowed_class_types_pass_type_id" FOREIGN KEY ("pass_type_id") REFERENCES "pass_types" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- Create "payments" table
CREATE TABLE "payments" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "import_ref" character varying NULL, "amount_minor" bigint NOT NULL, "currency" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'pending', "kind" character varying NOT NULL DEFAULT 'other', "paid_at" timestamptz NULL, "processor_payment_id" character varying NULL, "member_id" uuid NULL, "pass_id" uuid NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "payments_members_payments" FOREIGN KEY ("member_id") REFERENCES "members" ("id") ON UPDATE NO ACTION ON DELETE SET NULL, CONSTRAINT "payments_organizations_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "payments_passes_payments" FOREIGN KEY ("pass_id") REFERENCES "passes" ("id") ON UPDATE NO ACTION ON DELETE SET NULL);
-- Create index "payment_organization_id" to table: "payments"
CREATE INDEX "payment_organization_id" ON "payments" ("organization_id");
-- Create index "payment_organization_id_import_ref" to table: "payments"
CREATE UNIQUE INDEX "payment_organization_id_import_ref" ON "payments" ("organization_id", "import_ref");
-- Create index "payment_organization_id_paid_at" to table: "payments"
CREATE INDEX "payment_organization_id_paid_at" ON "payments" ("organization_id", "paid_at");
