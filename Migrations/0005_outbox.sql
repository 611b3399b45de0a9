-- Offline writes: an outbox of changes made locally, sent to the server in order,
-- and the server's copy of each item they change, kept apart.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

-- 1 while the item's JSON is the server's copy with pending or failed writes applied over it.
ALTER TABLE items ADD COLUMN overlaid INTEGER NOT NULL DEFAULT 0;

-- The server's copy of an overlaid item: what a fetched page brought, or the JSON it had
-- when it was first changed locally.
CREATE TABLE item_server_copies (
    item_id INTEGER PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    json BLOB NOT NULL,
    -- The version the item's first pending write was based on (a page ETag, a field's value).
    version TEXT,
    updated_at REAL NOT NULL
);

-- One row per write not yet acknowledged by the server, in the order it was made.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    item_id INTEGER NOT NULL REFERENCES items (id),
    -- 'merge' (a JSON merge patch, RFC 7386), 'replace' (the whole item) or 'delete'.
    kind TEXT NOT NULL,
    method TEXT NOT NULL,
    url TEXT NOT NULL,
    -- The JSON sent: the patch, or the whole item; NULL for a delete.
    body BLOB,
    -- Sent as Idempotency-Key: the same for every attempt of this write.
    idempotency_key TEXT NOT NULL UNIQUE,
    -- Sent as If-Match when known.
    base_version TEXT,
    -- 'pending' or 'failed' (the server refused it; the reason is in error).
    state TEXT NOT NULL DEFAULT 'pending',
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE INDEX outbox_by_item ON outbox (item_id, id);

-- Where a collection's items are written, with {id} for the id: given once per collection.
ALTER TABLE collections ADD COLUMN item_url TEXT;

-- The cache's budget and other settings of the file, by name.
CREATE TABLE settings (name TEXT PRIMARY KEY, value NOT NULL);
-- When a pager last opened the collection: a budget evicts the least recently read first.
ALTER TABLE collections ADD COLUMN read_at REAL;
-- The lists a process has open: a budget never evicts them while the process lives.
CREATE TABLE open_lists (
    collection_key TEXT NOT NULL,
    pid INTEGER NOT NULL,
    opened_at REAL NOT NULL,
    PRIMARY KEY (collection_key, pid)
) WITHOUT ROWID;
