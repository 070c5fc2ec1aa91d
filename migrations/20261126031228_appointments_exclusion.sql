-- Hand-written: no provider and no room is ever double-booked. Two
-- seat-holding appointments (booked, checked_in, in_progress, completed,
-- no_show) of one venue whose busy spans (the service's time plus its
-- buffers, [busy_from, busy_until)) overlap are refused by the database
-- itself, per provider and per room, with SQLSTATE 23P01
-- (exclusion_violation), whatever wrote them. ent cannot express EXCLUDE.
CREATE EXTENSION IF NOT EXISTS btree_gist;

ALTER TABLE appointments ADD CONSTRAINT appointments_provider_no_overlap
  EXCLUDE USING gist (
    organization_id WITH =,
    provider_id WITH =,
    tstzrange(busy_from, busy_until, '[)') WITH &&
  ) WHERE (status IN ('booked', 'checked_in', 'in_progress', 'completed', 'no_show'));

ALTER TABLE appointments ADD CONSTRAINT appointments_room_no_overlap
  EXCLUDE USING gist (
    organization_id WITH =,
    room_id WITH =,
    tstzrange(busy_from, busy_until, '[)') WITH &&
  ) WHERE (room_id IS NOT NULL AND status IN ('booked', 'checked_in', 'in_progress', 'completed', 'no_show'));

ALTER TABLE appointments ADD CONSTRAINT appointments_busy_span
  CHECK (busy_from <= starts_at AND starts_at < ends_at AND ends_at <= busy_until);
