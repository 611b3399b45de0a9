-- The fleet's queue: lists to sync, taken by workers under a lease they renew.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

CREATE TABLE queue (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    url TEXT NOT NULL,
    -- The list's sync options, as `slippers sync` arguments (a JSON array of strings); never headers.
    options TEXT NOT NULL DEFAULT '[]',
    -- pending: waiting for a worker; running: a worker holds it until lease_until; done; failed.
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
    worker TEXT,
    lease_until DOUBLE PRECISION,
    -- How many times a worker took the list.
    attempts BIGINT NOT NULL DEFAULT 0,
    -- The collection the list is filed under, once a worker has planned it.
    collection_key TEXT,
    -- The last run's summary line, or its error.
    last_result TEXT,
    last_error TEXT,
    enqueued_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    UNIQUE (url, options)
);

CREATE INDEX queue_by_state ON queue (state, id);
