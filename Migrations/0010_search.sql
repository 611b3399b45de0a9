-- Offline full-text search: an FTS5 index of the string values of the items of each searchable
-- item type, kept by triggers on `items`, so that every write of such an item (a page saved, an
-- item edited or written locally, an item evicted or removed with its account) changes the index
-- in the same transaction. A type becomes searchable when it is first searched (or its members
-- are named): the items of a type nobody searches cost no index.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

-- Contentless (content=''): the text is not stored twice, only its tokens. A row's rowid is its
-- item's `items.id`; a search joins `items` for the item, its type (and so its account) and its
-- JSON. Tokens are case-folded and stripped of diacritics (`cafe` finds `Café`). No document
-- sizes are kept (columnsize=0): ranking reads no row per match, and a write one row less per item.
CREATE VIRTUAL TABLE item_search USING fts5(
    text, content = '', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2'
);

-- The searchable item types. `members` is a JSON array of the top-level members whose string
-- values are indexed (`["title","body"]`), or NULL for every string value of the item.
CREATE TABLE search_types (
    item_type TEXT PRIMARY KEY,
    members TEXT
) WITHOUT ROWID;

-- The text indexed for an item: a token every indexed item holds (`slippersindexeditem`, which
-- lets `doctor` list the indexed rows), then its string values (of its type's members, when the
-- type names them) in document order, one per line. A contentless table deletes a row by being
-- given the text it indexed, so the same expression runs on `old`. An item whose bytes are not
-- JSON is indexed with the token alone.
CREATE TRIGGER item_search_insert AFTER INSERT ON items
WHEN EXISTS (SELECT 1 FROM search_types WHERE item_type = new.type) BEGIN
    INSERT INTO item_search (rowid, text) SELECT new.id, CASE
        WHEN NOT json_valid(new.json) THEN 'slippersindexeditem'
        WHEN s.members IS NULL THEN 'slippersindexeditem' || char(10) || ifnull(
            (SELECT group_concat(value, char(10)) FROM json_tree(new.json) WHERE type = 'text'), '')
        ELSE 'slippersindexeditem' || char(10) || ifnull((SELECT group_concat(t.value, char(10))
            FROM json_each(new.json) e CROSS JOIN json_tree(new.json, e.fullkey) t
            WHERE t.type = 'text' AND e.key IN (SELECT value FROM json_each(s.members))), '')
        END
    FROM search_types s WHERE s.item_type = new.type;
END;

CREATE TRIGGER item_search_delete AFTER DELETE ON items
WHEN EXISTS (SELECT 1 FROM search_types WHERE item_type = old.type) BEGIN
    INSERT INTO item_search (item_search, rowid, text) SELECT 'delete', old.id, CASE
        WHEN NOT json_valid(old.json) THEN 'slippersindexeditem'
        WHEN s.members IS NULL THEN 'slippersindexeditem' || char(10) || ifnull(
            (SELECT group_concat(value, char(10)) FROM json_tree(old.json) WHERE type = 'text'), '')
        ELSE 'slippersindexeditem' || char(10) || ifnull((SELECT group_concat(t.value, char(10))
            FROM json_each(old.json) e CROSS JOIN json_tree(old.json, e.fullkey) t
            WHERE t.type = 'text' AND e.key IN (SELECT value FROM json_each(s.members))), '')
        END
    FROM search_types s WHERE s.item_type = old.type;
END;

-- An item's type never changes once it is written (no write path updates it): only its JSON does.
CREATE TRIGGER item_search_update AFTER UPDATE OF json ON items
WHEN old.json IS NOT new.json AND EXISTS (SELECT 1 FROM search_types WHERE item_type = new.type) BEGIN
    INSERT INTO item_search (item_search, rowid, text) SELECT 'delete', old.id, CASE
        WHEN NOT json_valid(old.json) THEN 'slippersindexeditem'
        WHEN s.members IS NULL THEN 'slippersindexeditem' || char(10) || ifnull(
            (SELECT group_concat(value, char(10)) FROM json_tree(old.json) WHERE type = 'text'), '')
        ELSE 'slippersindexeditem' || char(10) || ifnull((SELECT group_concat(t.value, char(10))
            FROM json_each(old.json) e CROSS JOIN json_tree(old.json, e.fullkey) t
            WHERE t.type = 'text' AND e.key IN (SELECT value FROM json_each(s.members))), '')
        END
    FROM search_types s WHERE s.item_type = old.type;
    INSERT INTO item_search (rowid, text) SELECT new.id, CASE
        WHEN NOT json_valid(new.json) THEN 'slippersindexeditem'
        WHEN s.members IS NULL THEN 'slippersindexeditem' || char(10) || ifnull(
            (SELECT group_concat(value, char(10)) FROM json_tree(new.json) WHERE type = 'text'), '')
        ELSE 'slippersindexeditem' || char(10) || ifnull((SELECT group_concat(t.value, char(10))
            FROM json_each(new.json) e CROSS JOIN json_tree(new.json, e.fullkey) t
            WHERE t.type = 'text' AND e.key IN (SELECT value FROM json_each(s.members))), '')
        END
    FROM search_types s WHERE s.item_type = new.type;
END;
