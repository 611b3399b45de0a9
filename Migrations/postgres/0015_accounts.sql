-- Accounts: every list, item and watermark belongs to one, carried by the suffix " [account: NAME]"
-- of its collection key or item type (none for the anonymous account, so the rows made before
-- accounts existed are the anonymous account's). Lists kept for a partition are that account's now.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

UPDATE collections SET key = replace(key, ' [partition: ', ' [account: ') WHERE key LIKE '% [partition: %]';
UPDATE collections SET item_type = replace(item_type, ' [partition: ', ' [account: ')
WHERE item_type LIKE '% [partition: %]';
UPDATE items SET type = replace(type, ' [partition: ', ' [account: ') WHERE type LIKE '% [partition: %]';
UPDATE watermarks SET collection_key = replace(collection_key, ' [partition: ', ' [account: ')
WHERE collection_key LIKE '% [partition: %]';
