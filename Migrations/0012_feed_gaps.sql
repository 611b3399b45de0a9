-- The gaps of a list read from its head (a feed): items the server has between two cached runs
-- that no page holds. A gap sits on a page after the item at `after_position` (-1: before the
-- page's first item) and is filled from `token`, the continuation of the run above it; `items`
-- is how many the server said it holds, when it did. A page replaced by a fetch that spans the
-- gap takes its gaps with it.
CREATE TABLE gaps (
    id INTEGER PRIMARY KEY,
    page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    after_position INTEGER NOT NULL,
    token TEXT NOT NULL,
    items INTEGER,
    created_at REAL NOT NULL
);

CREATE INDEX gaps_by_page ON gaps (page_id);
