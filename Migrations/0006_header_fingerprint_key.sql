-- The key of the file's fingerprints of request header values (HMAC-SHA-256): 32 random bytes,
-- made here once per file.
INSERT INTO settings (name, value) VALUES ('header_fingerprint_key', lower(hex(randomblob(32))));

-- A fingerprint made without the key cannot be compared with one made with it: those pages are
-- asked for again before they are shown to a request that varies.
UPDATE pages SET vary_key = NULL WHERE vary_key IS NOT NULL;
