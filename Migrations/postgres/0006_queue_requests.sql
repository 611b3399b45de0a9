-- The fleet's queue stores each list's sync request (a SyncRequest, as JSON) instead of `slippers sync`
-- arguments. Once this file has run, PostgresCache converts the queued rows' arguments into requests
-- (a row whose arguments are not a request's ends failed with the reason), and 0007 drops the arguments.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

ALTER TABLE queue ADD COLUMN request TEXT;
