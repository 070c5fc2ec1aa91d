-- Hand-written: a guest place that holds a seat (guest_invites.status held or
-- paid) counts in class_instances.booked_count exactly like a booking's seat,
-- for every way a guest_invites row changes, so the class's one count that
-- bookings and guest places both read under the class lock never overbooks.
CREATE OR REPLACE FUNCTION venue_guest_invite_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  seat_statuses text[] := ARRAY['held', 'paid'];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = ANY (seat_statuses) THEN
    UPDATE class_instances SET booked_count = booked_count - 1 WHERE id = OLD.class_instance_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = ANY (seat_statuses) THEN
    UPDATE class_instances SET booked_count = booked_count + 1 WHERE id = NEW.class_instance_id;
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS guest_invites_counts ON guest_invites;
CREATE TRIGGER guest_invites_counts
AFTER INSERT OR DELETE OR UPDATE OF status ON guest_invites
FOR EACH ROW EXECUTE FUNCTION venue_guest_invite_counts();
