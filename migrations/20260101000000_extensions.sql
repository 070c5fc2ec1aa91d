-- Extensions the schema needs: trigram indexes for member search.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
