-- The queue holds requests only: the arguments column goes, with its uniqueness; one request is
-- queued once (its JSON text has sorted keys, so one request is one text).
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

ALTER TABLE queue DROP COLUMN options;

ALTER TABLE queue ALTER COLUMN request SET NOT NULL;

CREATE UNIQUE INDEX queue_by_request ON queue (md5(request));
