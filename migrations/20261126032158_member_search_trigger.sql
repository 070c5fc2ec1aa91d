-- Hand-written: keeps the search columns of members (search_first,
-- search_last, search_email, search_phone, search_client) equal to the
-- normalised names, email and phone of the member's user and the member's
-- client display id, for every way a member or user row changes (ent, the
-- importer, COPY, SQL), in the same transaction as the change.

-- venue_search_norm is the one normalisation of member search, for the
-- stored columns and for queries alike: accents folded (unaccent), lower
-- case, control characters dropped, runs of white space as one space, no
-- space at either end.
CREATE OR REPLACE FUNCTION venue_search_norm(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path FROM CURRENT
AS $$
  SELECT btrim(regexp_replace(lower(unaccent('unaccent'::regdictionary, t)), '[\s[:cntrl:]]+', ' ', 'g'))
$$;

CREATE OR REPLACE FUNCTION venue_member_search_fill() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  u record;
BEGIN
  SELECT first_name, last_name, email, phone INTO u FROM users WHERE id = NEW.user_id;
  NEW.search_first := venue_search_norm(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''));
  NEW.search_last := venue_search_norm(coalesce(u.last_name, '') || ' ' || coalesce(u.first_name, ''));
  NEW.search_email := venue_search_norm(u.email);
  NEW.search_phone := nullif(reverse(regexp_replace(coalesce(u.phone, ''), '[^0-9]', '', 'g')), '');
  NEW.search_client := nullif(venue_search_norm(NEW.client_display_id), '');
  RETURN NEW;
END;
$$;

DROP TRIGGER IF EXISTS members_search ON members;
CREATE TRIGGER members_search
BEFORE INSERT OR UPDATE OF user_id, client_display_id, search_first, search_last, search_email, search_phone, search_client
ON members
FOR EACH ROW EXECUTE FUNCTION venue_member_search_fill();

-- A changed name, email or phone refreshes the person's member rows in
-- every venue (through the members trigger above).
CREATE OR REPLACE FUNCTION venue_user_search_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET search_first = NULL WHERE user_id = NEW.id;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS users_member_search ON users;
CREATE TRIGGER users_member_search
AFTER UPDATE OF first_name, last_name, email, phone ON users
FOR EACH ROW
WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
  OR OLD.email IS DISTINCT FROM NEW.email OR OLD.phone IS DISTINCT FROM NEW.phone)
EXECUTE FUNCTION venue_user_search_sync();

-- Fill the rows written before the trigger existed.
UPDATE members SET search_first = NULL;
