-- Hand-written: two shifts of one member of staff never overlap. The
-- database refuses overlapping [starts_at, ends_at) spans of one person in
-- a venue with SQLSTATE 23P01 (exclusion_violation), answered 409
-- SHIFT_OVERLAP. ent cannot express EXCLUDE; btree_gist is created by
-- *_appointments_exclusion.sql.
ALTER TABLE staff_shifts ADD CONSTRAINT staff_shifts_no_overlap
  EXCLUDE USING gist (
    organization_id WITH =,
    staff_id WITH =,
    tstzrange(starts_at, ends_at, '[)') WITH &&
  );

ALTER TABLE staff_shifts ADD CONSTRAINT staff_shifts_positive
  CHECK (starts_at < ends_at);
