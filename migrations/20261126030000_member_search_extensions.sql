-- Hand-written: the extension of member search: unaccent folds accents in
-- the normalised search columns of members (venue_search_norm).
CREATE EXTENSION IF NOT EXISTS unaccent;
