-- Modify "refund_reviews" table
ALTER TABLE "refund_reviews" ADD CONSTRAINT "refund_reviews_payments_payment" FOREIGN KEY ("payment_id") REFERENCES "payments" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION;
