-- Hand-written: keeps sales_dailies (the daily sales rollup the sales snapshot
-- reads) equal to the payment rows, for every way a payment row changes (ent,
-- the importer, COPY, SQL), in the writing statement's own transaction.
--
-- A payment counts on the cash basis when it succeeded, on the venue-local
-- date of paid_at; on the accrual basis when it is pending or succeeded, on
-- the venue-local date of created_at. Brand and location are the nil UUID
-- when the payment has none.
--
-- The triggers are per statement, over their transition tables: a
-- statement's rows are grouped first and each rollup row is upserted once, in
-- key order. A per-row trigger would update one rollup row once per payment
-- inside a single transaction (a COPY of a million payments updates each
-- day's row thousands of times, every update walking the row versions before
-- it). An UPDATE counts its old rows out and its new rows in; rows whose
-- reported columns did not change cancel out in the grouping and write
-- nothing.
CREATE OR REPLACE FUNCTION venue_sales_daily() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  src text;
BEGIN
  src := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS dir FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS dir FROM old_rows o'
    ELSE 'SELECT o.*, -1 AS dir FROM old_rows o UNION ALL SELECT n.*, 1 AS dir FROM new_rows n'
  END;
  EXECUTE format($q$
    INSERT INTO sales_dailies AS s (id, created_at, updated_at, organization_id, basis, day, currency,
        method, category, brand_id, location_id, amount_minor, payments)
    SELECT gen_random_uuid(), now(), now(), g.organization_id, g.basis, g.day, g.currency, g.method, g.category,
           g.brand_id, g.location_id, g.amount, g.n
    FROM (
      SELECT p.organization_id, b.basis, (b.at AT TIME ZONE coalesce(o.timezone, 'UTC'))::date AS day,
             p.currency, p.method, p.kind AS category,
             coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000') AS brand_id,
             coalesce(p.location_id, '00000000-0000-0000-0000-000000000000') AS location_id,
             sum(p.dir * p.amount_minor)::bigint AS amount, sum(p.dir)::bigint AS n
      FROM (%s) p
      JOIN organizations o ON o.id = p.organization_id
      CROSS JOIN LATERAL (VALUES
          ('cash', p.paid_at, p.status = 'succeeded' AND p.paid_at IS NOT NULL),
          ('accrual', p.created_at, p.status IN ('pending', 'succeeded'))
        ) AS b(basis, at, counts)
      WHERE b.counts
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
      HAVING sum(p.dir) <> 0 OR sum(p.dir * p.amount_minor) <> 0
    ) g
    ORDER BY g.organization_id, g.basis, g.day, g.currency, g.method, g.category, g.brand_id, g.location_id
    ON CONFLICT (organization_id, basis, day, currency, method, category, brand_id, location_id)
    DO UPDATE SET amount_minor = s.amount_minor + EXCLUDED.amount_minor,
                  payments = s.payments + EXCLUDED.payments,
                  updated_at = now()
  $q$, src);
  RETURN NULL;
END;
$$;

CREATE TRIGGER payments_sales_daily_insert AFTER INSERT ON payments
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION venue_sales_daily();
CREATE TRIGGER payments_sales_daily_update AFTER UPDATE ON payments
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION venue_sales_daily();
CREATE TRIGGER payments_sales_daily_delete AFTER DELETE ON payments
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION venue_sales_daily();

-- venue_sales_daily_refresh recomputes the rollup of one venue's dates
-- [from_day, to_day] from the payment rows, in the venue's current time zone
-- (after a time-zone change, or to prove the rollup). Concurrent payment
-- writes stay correct: their trigger rows wait on the deleted and inserted
-- keys and add to the recomputed ones.
CREATE OR REPLACE FUNCTION venue_sales_daily_refresh(org uuid, from_day date, to_day date) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  tz text;
  lo timestamptz;
  hi timestamptz;
BEGIN
  SELECT coalesce(timezone, 'UTC') INTO tz FROM organizations WHERE id = org;
  lo := from_day::timestamp AT TIME ZONE tz;
  hi := (to_day + 1)::timestamp AT TIME ZONE tz;
  DELETE FROM sales_dailies WHERE organization_id = org AND day BETWEEN from_day AND to_day;
  INSERT INTO sales_dailies (id, created_at, updated_at, organization_id, basis, day, currency,
      method, category, brand_id, location_id, amount_minor, payments)
  SELECT gen_random_uuid(), now(), now(), org, f.basis, f.day, f.currency, f.method, f.category,
         f.brand_id, f.location_id, sum(f.amount_minor), count(*)
  FROM (
    SELECT 'cash' AS basis, (p.paid_at AT TIME ZONE tz)::date AS day, p.currency, p.method, p.kind AS category,
           coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000') AS brand_id,
           coalesce(p.location_id, '00000000-0000-0000-0000-000000000000') AS location_id, p.amount_minor
    FROM payments p
    WHERE p.organization_id = org AND p.status = 'succeeded' AND p.paid_at >= lo AND p.paid_at < hi
    UNION ALL
    SELECT 'accrual', (p.created_at AT TIME ZONE tz)::date, p.currency, p.method, p.kind,
           coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000'),
           coalesce(p.location_id, '00000000-0000-0000-0000-000000000000'), p.amount_minor
    FROM payments p
    WHERE p.organization_id = org AND p.status IN ('pending', 'succeeded') AND p.created_at >= lo AND p.created_at < hi
  ) f
  GROUP BY f.basis, f.day, f.currency, f.method, f.category, f.brand_id, f.location_id
  ON CONFLICT (organization_id, basis, day, currency, method, category, brand_id, location_id)
  DO UPDATE SET amount_minor = sales_dailies.amount_minor + EXCLUDED.amount_minor,
                payments = sales_dailies.payments + EXCLUDED.payments,
                updated_at = now();
END;
$$;

-- Backfill the payments written before the rollup existed.
INSERT INTO sales_dailies (id, created_at, updated_at, organization_id, basis, day, currency,
    method, category, brand_id, location_id, amount_minor, payments)
SELECT gen_random_uuid(), now(), now(), f.organization_id, f.basis, f.day, f.currency, f.method, f.category,
       f.brand_id, f.location_id, sum(f.amount_minor), count(*)
FROM (
  SELECT p.organization_id, 'cash' AS basis, (p.paid_at AT TIME ZONE o.timezone)::date AS day, p.currency,
         p.method, p.kind AS category,
         coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000') AS brand_id,
         coalesce(p.location_id, '00000000-0000-0000-0000-000000000000') AS location_id, p.amount_minor
  FROM payments p JOIN organizations o ON o.id = p.organization_id
  WHERE p.status = 'succeeded' AND p.paid_at IS NOT NULL
  UNION ALL
  SELECT p.organization_id, 'accrual', (p.created_at AT TIME ZONE o.timezone)::date, p.currency,
         p.method, p.kind,
         coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(p.location_id, '00000000-0000-0000-0000-000000000000'), p.amount_minor
  FROM payments p JOIN organizations o ON o.id = p.organization_id
  WHERE p.status IN ('pending', 'succeeded')
) f
GROUP BY f.organization_id, f.basis, f.day, f.currency, f.method, f.category, f.brand_id, f.location_id;
