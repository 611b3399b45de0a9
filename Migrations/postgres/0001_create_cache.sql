-- The cache in PostgreSQL: the tables of the SQLite file's schema (migrations 0001 to 0004),
-- in the schema the connection's search_path names (ours: `slippers` unless chosen).
-- Statements end with a semicolon at the end of a line: each runs on its own, in one transaction.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

CREATE TABLE collections (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    item_type TEXT NOT NULL,
    -- The pagination style, as its source describes it (opaque text).
    style TEXT,
    -- The token of the next page to fetch; NULL when the end is reached or nothing was fetched.
    resume_token TEXT,
    end_reached BOOLEAN NOT NULL DEFAULT FALSE,
    total BIGINT,
    -- Times are seconds since 1970, as in the SQLite file.
    created_at DOUBLE PRECISION NOT NULL,
    refreshed_at DOUBLE PRECISION,
    invalidated_at DOUBLE PRECISION,
    unverified_before DOUBLE PRECISION,
    -- Bumped each time a first page is saved; pages of older generations are stale.
    generation BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE items (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    type TEXT NOT NULL,
    -- The item's id as JSON text: a number or a string, so 1 and "1" stay two keys.
    key TEXT NOT NULL,
    -- The item's JSON bytes as the server sent them.
    json BYTEA NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    edited_locally BOOLEAN NOT NULL DEFAULT FALSE,
    UNIQUE (type, key)
);

CREATE TABLE pages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    collection_id BIGINT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    idx BIGINT NOT NULL,
    generation BIGINT NOT NULL,
    token TEXT,
    next_token TEXT,
    etag TEXT,
    last_modified TEXT,
    fetched_at DOUBLE PRECISION NOT NULL,
    item_count BIGINT NOT NULL,
    verified_at DOUBLE PRECISION,
    digest TEXT,
    lifetime DOUBLE PRECISION,
    no_cache BOOLEAN NOT NULL DEFAULT FALSE,
    stale_while_revalidate DOUBLE PRECISION,
    stale_if_error DOUBLE PRECISION,
    vary TEXT,
    vary_key TEXT,
    UNIQUE (collection_id, idx)
);

CREATE TABLE page_items (
    page_id BIGINT NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    item_id BIGINT NOT NULL REFERENCES items (id),
    PRIMARY KEY (page_id, position)
);

CREATE INDEX page_items_by_item ON page_items (item_id);

CREATE INDEX pages_by_generation ON pages (collection_id, generation, idx);
