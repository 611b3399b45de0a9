-- Per-page freshness: when each page was last verified by the network, a digest
-- of its items, and what its response said about caching it. Existing pages
-- keep everything they had; they count as verified when they were fetched.

-- When the network last confirmed the page (fetched it, or answered "not modified").
ALTER TABLE pages ADD COLUMN verified_at REAL;
-- A digest of the page's items (keys and JSON bytes): a 200 with the same
-- digest is "not modified" for a server that sends no validator. NULL for
-- pages saved before this migration: they are compared item by item.
ALTER TABLE pages ADD COLUMN digest TEXT;
-- How long after verified_at the page is fresh, in seconds (Cache-Control:
-- max-age, or Expires); NULL when the server did not say.
ALTER TABLE pages ADD COLUMN lifetime REAL;
-- Cache-Control: no-cache: revalidate before every use.
ALTER TABLE pages ADD COLUMN no_cache INTEGER NOT NULL DEFAULT 0;
-- RFC 5861 windows past the lifetime, in seconds.
ALTER TABLE pages ADD COLUMN stale_while_revalidate REAL;
ALTER TABLE pages ADD COLUMN stale_if_error REAL;
-- The request headers the response varied on, comma-separated, and the
-- fingerprint of the values the request carried (never the values).
ALTER TABLE pages ADD COLUMN vary TEXT;
ALTER TABLE pages ADD COLUMN vary_key TEXT;

UPDATE pages SET verified_at = fetched_at;

-- Pages verified before this time are unverified: a refresh marks every page
-- of a collection in one write, seen by every process that opens the file.
ALTER TABLE collections ADD COLUMN unverified_before REAL;

UPDATE collections SET unverified_before = invalidated_at;

-- Items saved locally (an edit not yet confirmed by a page fetch): a snapshot marks them.
ALTER TABLE items ADD COLUMN edited_locally INTEGER NOT NULL DEFAULT 0;
