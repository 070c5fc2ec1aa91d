-- Create index "payment_organization_id_member_id_created_at_id" to table: "payments"
CREATE INDEX "payment_organization_id_member_id_created_at_id" ON "payments" ("organization_id", "member_id", "created_at", "id");
-- Create index "payment_organization_id_member_id_paid_at_id" to table: "payments"
CREATE INDEX "payment_organization_id_member_id_paid_at_id" ON "payments" ("organization_id", "member_id", "paid_at", "id");
