-- Hand-written: extensions of member search. btree_gist lets one GiST index
-- hold the venue (uuid) beside the trigram search text; unaccent folds
-- accents in the normalised search columns.
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE EXTENSION IF NOT EXISTS unaccent;
