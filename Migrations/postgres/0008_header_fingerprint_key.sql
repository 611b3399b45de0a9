-- The cache's settings by name, and the key of its fingerprints of request header values
-- (HMAC-SHA-256): 32 random bytes, from two random UUIDs' strong random bits, made here once.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);

INSERT INTO settings (name, value) VALUES (
    'header_fingerprint_key',
    replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''));

-- A fingerprint made without the key cannot be compared with one made with it.
UPDATE pages SET vary_key = NULL WHERE vary_key IS NOT NULL;
