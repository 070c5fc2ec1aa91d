-- Hand-written: keeps class_instances.booked_count and waitlist_count equal to
-- the bookings that hold a seat (confirmed, checked_in, no-show,
-- pending_payment) and the waitlisted ones, for every way a booking row
-- changes (ent, COPY, SQL), so schedule reads need no count query.
CREATE OR REPLACE FUNCTION venue_booking_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  seat_statuses text[] := ARRAY['confirmed', 'checked_in', 'no-show', 'pending_payment'];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE class_instances SET
      booked_count = booked_count - (CASE WHEN OLD.status = ANY (seat_statuses) THEN 1 ELSE 0 END),
      waitlist_count = waitlist_count - (CASE WHEN OLD.status = 'waitlisted' THEN 1 ELSE 0 END)
    WHERE id = OLD.class_instance_id
      AND (OLD.status = ANY (seat_statuses) OR OLD.status = 'waitlisted');
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE class_instances SET
      booked_count = booked_count + (CASE WHEN NEW.status = ANY (seat_statuses) THEN 1 ELSE 0 END),
      waitlist_count = waitlist_count + (CASE WHEN NEW.status = 'waitlisted' THEN 1 ELSE 0 END)
    WHERE id = NEW.class_instance_id
      AND (NEW.status = ANY (seat_statuses) OR NEW.status = 'waitlisted');
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS bookings_counts ON bookings;
CREATE TRIGGER bookings_counts
AFTER INSERT OR DELETE OR UPDATE OF status, class_instance_id ON bookings
FOR EACH ROW EXECUTE FUNCTION venue_booking_counts();

-- Backfill rows written before the trigger existed.
UPDATE class_instances ci SET
  booked_count = c.booked,
  waitlist_count = c.waitlisted
FROM (
  SELECT class_instance_id,
         count(*) FILTER (WHERE status IN ('confirmed', 'checked_in', 'no-show', 'pending_payment')) AS booked,
         count(*) FILTER (WHERE status = 'waitlisted') AS waitlisted
  FROM bookings GROUP BY class_instance_id
) c
WHERE ci.id = c.class_instance_id;
