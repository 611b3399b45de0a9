-- The cache: collections of pages, pages of ordered item ids, items stored once.
-- Dates are seconds since 1970 (REAL). Never edit this file once it has landed:
-- a schema change is a new, higher-numbered file.

-- One row per cached list: a canonical key of endpoint + query.
CREATE TABLE collections (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    item_type TEXT NOT NULL,
    -- The pagination style, as its source describes it (opaque text).
    style TEXT,
    -- The token of the next page to fetch; NULL when the end is reached or nothing was fetched.
    resume_token TEXT,
    end_reached INTEGER NOT NULL DEFAULT 0,
    total INTEGER,
    created_at REAL NOT NULL,
    refreshed_at REAL,
    invalidated_at REAL,
    -- Bumped each time a first page is saved; pages of older generations are stale.
    generation INTEGER NOT NULL DEFAULT 0
);

-- One row per item type and id. `key` has no declared type on purpose: an
-- integer id stays an integer and a string id a string, so 42 and '42' differ.
CREATE TABLE items (
    id INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    key NOT NULL,
    json BLOB NOT NULL,
    updated_at REAL NOT NULL,
    UNIQUE (type, key)
);

-- One row per fetched page of a collection.
CREATE TABLE pages (
    id INTEGER PRIMARY KEY,
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    token TEXT,
    next_token TEXT,
    etag TEXT,
    last_modified TEXT,
    fetched_at REAL NOT NULL,
    item_count INTEGER NOT NULL,
    UNIQUE (collection_id, idx)
);

-- The ordered ids of each page: reading page k is a keyed lookup at any depth.
CREATE TABLE page_items (
    page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    item_id INTEGER NOT NULL REFERENCES items (id),
    PRIMARY KEY (page_id, position)
) WITHOUT ROWID;

-- Finds the pages that reference an item: garbage collection and de-duplication.
CREATE INDEX page_items_by_item ON page_items (item_id);
