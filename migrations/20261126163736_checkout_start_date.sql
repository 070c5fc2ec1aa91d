-- Modify "checkouts" table
ALTER TABLE "checkouts" ADD COLUMN "starts_on" date NULL;
