-- Each page membership names its page's collection, indexed with the item: whether the items of
-- a page are listed by earlier pages of the same list is then one index probe an item, however
-- many other lists share those items (the same items reached through many lists).
-- An existing database is filled in from the pages' own collection, in the migration's transaction.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

ALTER TABLE page_items ADD COLUMN collection_id BIGINT;

UPDATE page_items pi SET collection_id = p.collection_id FROM pages p WHERE p.id = pi.page_id;

ALTER TABLE page_items ALTER COLUMN collection_id SET NOT NULL;

CREATE INDEX page_items_by_collection ON page_items (collection_id, item_id);
