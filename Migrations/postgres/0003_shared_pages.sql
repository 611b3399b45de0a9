-- Pages of one list fetched ahead by workers waiting for its lease, for the worker holding it.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

CREATE TABLE shared_pages (
    collection_key TEXT NOT NULL,
    -- The page's token, as the list's source names it (never the first page, whose token is none).
    token TEXT NOT NULL,
    -- claimed: a worker is fetching it; staged: fetched, waiting for the lease holder; taken: the
    -- lease holder has it (fetched itself, or taken from a worker).
    state TEXT NOT NULL DEFAULT 'claimed' CHECK (state IN ('claimed', 'staged', 'taken')),
    -- The backend process of the claiming worker's session: a claim whose session is gone is free.
    claimed_by INTEGER NOT NULL,
    claimed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- The staged page (its items' JSON and its headers' facts), until the lease holder takes it.
    page BYTEA,
    PRIMARY KEY (collection_key, token)
);
