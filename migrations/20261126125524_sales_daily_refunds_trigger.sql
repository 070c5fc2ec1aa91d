-- Hand-written: nets refunds in sales_dailies (the daily sales rollup the
-- sales snapshot reads).
--
-- A payment that was refunded keeps counting as the sale it was, on its own
-- date: on the cash basis when it succeeded (status succeeded, refunded or
-- partially_refunded: a refund changes the status), on the accrual basis when
-- pending or any of those. Its refunds count on their own date: a refund that
-- succeeded, on the venue-local date of refunded_at, on both bases, in the
-- dimensions of the payment it refunds (currency, method, category, brand,
-- location), as refunded_minor and refunds of that day's rollup row; the
-- snapshot answers amount_minor - refunded_minor. Before, a refunded payment
-- dropped out of every day and a partial refund could not be netted.
--
-- Like the payments trigger, the refunds one is per statement over its
-- transition tables, upserting each rollup row once, in key order, in the
-- refund writer's own transaction.
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
          ('cash', p.paid_at, p.status IN ('succeeded', 'refunded', 'partially_refunded') AND p.paid_at IS NOT NULL),
          ('accrual', p.created_at, p.status IN ('pending', 'succeeded', 'refunded', 'partially_refunded'))
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

CREATE OR REPLACE FUNCTION venue_sales_daily_refunds() RETURNS trigger
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
        method, category, brand_id, location_id, amount_minor, payments, refunded_minor, refunds)
    SELECT gen_random_uuid(), now(), now(), g.organization_id, g.basis, g.day, g.currency, g.method, g.category,
           g.brand_id, g.location_id, 0, 0, g.amount, g.n
    FROM (
      SELECT r.organization_id, b.basis, (r.refunded_at AT TIME ZONE coalesce(o.timezone, 'UTC'))::date AS day,
             p.currency, p.method, p.kind AS category,
             coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000') AS brand_id,
             coalesce(p.location_id, '00000000-0000-0000-0000-000000000000') AS location_id,
             sum(r.dir * r.amount_minor)::bigint AS amount, sum(r.dir)::bigint AS n
      FROM (%s) r
      JOIN payments p ON p.id = r.payment_id
      JOIN organizations o ON o.id = r.organization_id
      CROSS JOIN (VALUES ('cash'), ('accrual')) AS b(basis)
      WHERE r.status = 'succeeded' AND r.refunded_at IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
      HAVING sum(r.dir) <> 0 OR sum(r.dir * r.amount_minor) <> 0
    ) g
    ORDER BY g.organization_id, g.basis, g.day, g.currency, g.method, g.category, g.brand_id, g.location_id
    ON CONFLICT (organization_id, basis, day, currency, method, category, brand_id, location_id)
    DO UPDATE SET refunded_minor = s.refunded_minor + EXCLUDED.refunded_minor,
                  refunds = s.refunds + EXCLUDED.refunds,
                  updated_at = now()
  $q$, src);
  RETURN NULL;
END;
$$;

CREATE TRIGGER refunds_sales_daily_insert AFTER INSERT ON refunds
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION venue_sales_daily_refunds();
CREATE TRIGGER refunds_sales_daily_update AFTER UPDATE ON refunds
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION venue_sales_daily_refunds();
CREATE TRIGGER refunds_sales_daily_delete AFTER DELETE ON refunds
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION venue_sales_daily_refunds();

-- venue_sales_daily_refresh recomputes the rollup of one venue's dates
-- [from_day, to_day] from the payment and refund rows, in the venue's current
-- time zone. The payments' arithmetic is unchanged; refunds add their
-- refunded_minor and refunds on the refund's date.
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
      method, category, brand_id, location_id, amount_minor, payments, refunded_minor, refunds)
  SELECT gen_random_uuid(), now(), now(), org, f.basis, f.day, f.currency, f.method, f.category,
         f.brand_id, f.location_id, sum(f.amount_minor), sum(f.payments), sum(f.refunded_minor), sum(f.refunds)
  FROM (
    SELECT 'cash' AS basis, (p.paid_at AT TIME ZONE tz)::date AS day, p.currency, p.method, p.kind AS category,
           coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000') AS brand_id,
           coalesce(p.location_id, '00000000-0000-0000-0000-000000000000') AS location_id,
           p.amount_minor, 1 AS payments, 0::bigint AS refunded_minor, 0 AS refunds
    FROM payments p
    WHERE p.organization_id = org AND p.status IN ('succeeded', 'refunded', 'partially_refunded')
      AND p.paid_at >= lo AND p.paid_at < hi
    UNION ALL
    SELECT 'accrual', (p.created_at AT TIME ZONE tz)::date, p.currency, p.method, p.kind,
           coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000'),
           coalesce(p.location_id, '00000000-0000-0000-0000-000000000000'), p.amount_minor, 1, 0, 0
    FROM payments p
    WHERE p.organization_id = org AND p.status IN ('pending', 'succeeded', 'refunded', 'partially_refunded')
      AND p.created_at >= lo AND p.created_at < hi
    UNION ALL
    SELECT b.basis, (r.refunded_at AT TIME ZONE tz)::date, p.currency, p.method, p.kind,
           coalesce(p.brand_id, '00000000-0000-0000-0000-000000000000'),
           coalesce(p.location_id, '00000000-0000-0000-0000-000000000000'), 0, 0, r.amount_minor, 1
    FROM refunds r JOIN payments p ON p.id = r.payment_id
    CROSS JOIN (VALUES ('cash'), ('accrual')) AS b(basis)
    WHERE r.organization_id = org AND r.status = 'succeeded' AND r.refunded_at >= lo AND r.refunded_at < hi
  ) f
  GROUP BY f.basis, f.day, f.currency, f.method, f.category, f.brand_id, f.location_id
  ON CONFLICT (organization_id, basis, day, currency, method, category, brand_id, location_id)
  DO UPDATE SET amount_minor = sales_dailies.amount_minor + EXCLUDED.amount_minor,
                payments = sales_dailies.payments + EXCLUDED.payments,
                refunded_minor = sales_dailies.refunded_minor + EXCLUDED.refunded_minor,
                refunds = sales_dailies.refunds + EXCLUDED.refunds,
                updated_at = now();
END;
$$;

-- Recompute every venue's rollup: refunded payments count again on their
-- own dates, and their refunds on theirs.
DO $$
DECLARE
  v record;
BEGIN
  FOR v IN
    SELECT p.organization_id AS org,
           min(least(p.created_at, coalesce(p.paid_at, p.created_at)))::date - 1 AS lo,
           greatest(max(greatest(p.created_at, coalesce(p.paid_at, p.created_at)))::date,
                    coalesce(max(r.refunded_at)::date, '-infinity'::date)) + 1 AS hi
    FROM payments p LEFT JOIN refunds r ON r.payment_id = p.id
    GROUP BY p.organization_id
  LOOP
    PERFORM venue_sales_daily_refresh(v.org, v.lo, v.hi);
  END LOOP;
END;
$$;
