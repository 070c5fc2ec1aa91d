-- Rate-limit state of package ratelimit (GCRA): one row per limited key, holding its
-- theoretical arrival time. Hand-written, not an ent entity: only ratelimit's one
-- INSERT ... ON CONFLICT DO UPDATE statement touches it, and no venue owns a row.
-- UNLOGGED: the state is soft (a crash forgets at most one window of counts), and
-- skipping the write-ahead log keeps the per-request write cheap.
CREATE UNLOGGED TABLE IF NOT EXISTS rate_limits (
  key text NOT NULL PRIMARY KEY,
  tat timestamptz NOT NULL,
  allowed boolean NOT NULL DEFAULT true
);
