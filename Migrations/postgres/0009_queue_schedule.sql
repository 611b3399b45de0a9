-- Scheduled lists: a list whose request has a schedule comes due again after each run. due_at is
-- when the list may be taken next (NULL: now); failures counts its runs that failed in a row, for
-- the backoff of a list whose server keeps failing (reset by a run that succeeds).
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

ALTER TABLE queue ADD COLUMN IF NOT EXISTS due_at DOUBLE PRECISION;

ALTER TABLE queue ADD COLUMN IF NOT EXISTS failures BIGINT NOT NULL DEFAULT 0;

CREATE INDEX IF NOT EXISTS queue_by_due ON queue (state, due_at, id);
