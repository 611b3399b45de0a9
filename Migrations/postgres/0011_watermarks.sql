-- The watermark of each list synced incrementally: the field it is taken from, the greatest value
-- seen by the last run that completed, and the value a run under way asks from (so that a run
-- killed midway asks again from it). Keyed by the collection's key: a list's first run with an
-- initial value keeps it before the collection has a row. Times are epoch seconds.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

CREATE TABLE watermarks (
    collection_key TEXT PRIMARY KEY,
    field TEXT NOT NULL,
    value TEXT,
    pending_since TEXT,
    updated_at DOUBLE PRECISION NOT NULL
);
