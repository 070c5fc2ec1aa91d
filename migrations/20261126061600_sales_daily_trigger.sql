-- Hand-written: keeps sales_dailies (the daily sales rollup the sales snapshot
-- reads) equal to the payment rows, for every way a payment row changes (ent,
-- the importer, COPY, SQL), in the payment's own transaction.
--
-- A payment counts on the cash basis when it succeeded, on the venue-local
-- date of paid_at; on the accrual basis when it is pending or succeeded, on
-- the venue-local date of created_at. Brand and location are the nil UUID
-- when the payment has none.

-- It takes the payment's columns rather than its row type, so the function
-- does not depend on the payments table (migration replays drop tables).
CREATE OR REPLACE FUNCTION venue_sales_daily_add(p_org uuid, p_status text, p_paid_at timestamptz, p_created_at timestamptz,
    p_currency text, p_method text, p_kind text, p_brand_id uuid, p_location_id uuid, p_amount_minor bigint, p_sign integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_tz text;
  v_basis text;
  v_at timestamptz;
BEGIN
  SELECT o.timezone INTO v_tz FROM organizations o WHERE o.id = p_org;
  FOREACH v_basis IN ARRAY ARRAY['cash', 'accrual'] LOOP
    IF v_basis = 'cash' THEN
      CONTINUE WHEN p_status <> 'succeeded' OR p_paid_at IS NULL;
      v_at := p_paid_at;
    ELSE
      CONTINUE WHEN p_status NOT IN ('pending', 'succeeded');
      v_at := p_created_at;
    END IF;
    INSERT INTO sales_dailies AS s (id, created_at, updated_at, organization_id, basis, day, currency,
        method, category, brand_id, location_id, amount_minor, payments)
    VALUES (gen_random_uuid(), now(), now(), p_org, v_basis, (v_at AT TIME ZONE coalesce(v_tz, 'UTC'))::date,
        p_currency, p_method, p_kind,
        coalesce(p_brand_id, '00000000-0000-0000-0000-000000000000'),
        coalesce(p_location_id, '00000000-0000-0000-0000-000000000000'),
        p_sign * p_amount_minor, p_sign)
    ON CONFLICT (organization_id, basis, day, currency, method, category, brand_id, location_id)
    DO UPDATE SET amount_minor = s.amount_minor + EXCLUDED.amount_minor,
                  payments = s.payments + EXCLUDED.payments,
                  updated_at = now();
  END LOOP;
END;
$$;

CREATE OR REPLACE FUNCTION venue_sales_daily() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM venue_sales_daily_add(OLD.organization_id, OLD.status::text, OLD.paid_at, OLD.created_at, OLD.currency::text,
      OLD.method::text, OLD.kind::text, OLD.brand_id, OLD.location_id, OLD.amount_minor, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM venue_sales_daily_add(NEW.organization_id, NEW.status::text, NEW.paid_at, NEW.created_at, NEW.currency::text,
      NEW.method::text, NEW.kind::text, NEW.brand_id, NEW.location_id, NEW.amount_minor, 1);
  END IF;
  RETURN NULL;
END;
$$;

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

DROP TRIGGER IF EXISTS payments_sales_daily ON payments;
CREATE TRIGGER payments_sales_daily
AFTER INSERT OR DELETE OR UPDATE OF status, amount_minor, currency, kind, method, paid_at, created_at,
  brand_id, location_id, organization_id ON payments
FOR EACH ROW EXECUTE FUNCTION venue_sales_daily();

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
