-- Hand-written: a product's stock never goes below zero. The sale takes
-- stock with a conditional update (stock_on_hand >= quantity); this CHECK
-- makes the database refuse a negative stock from any writer (SQLSTATE 23514).
ALTER TABLE "products" ADD CONSTRAINT "products_stock_non_negative" CHECK (stock_on_hand >= 0);
