-- Hand-written: an online checkout's appointment (pending_payment) holds its
-- provider's and room's time like a booking while its payment completes, so
-- the exclusion constraints of *_appointments_exclusion.sql count it too. An
-- expired hold is released (cancelled) by the booking that needs its time
-- before that booking's insert. ent cannot express EXCLUDE.
ALTER TABLE appointments DROP CONSTRAINT appointments_provider_no_overlap;
ALTER TABLE appointments ADD CONSTRAINT appointments_provider_no_overlap
  EXCLUDE USING gist (
    organization_id WITH =,
    provider_id WITH =,
    tstzrange(busy_from, busy_until, '[)') WITH &&
  ) WHERE (status IN ('booked', 'checked_in', 'in_progress', 'completed', 'no_show', 'pending_payment'));

ALTER TABLE appointments DROP CONSTRAINT appointments_room_no_overlap;
ALTER TABLE appointments ADD CONSTRAINT appointments_room_no_overlap
  EXCLUDE USING gist (
    organization_id WITH =,
    room_id WITH =,
    tstzrange(busy_from, busy_until, '[)') WITH &&
  ) WHERE (room_id IS NOT NULL AND status IN ('booked', 'checked_in', 'in_progress', 'completed', 'no_show', 'pending_payment'));
