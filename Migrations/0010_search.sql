-- Offline full-text search: an FTS5 index of the string values of every item, kept by triggers on
-- `items`, so that every write of an item (a page saved, an item edited or written locally, an item
-- evicted or removed with its account) changes the index in the same transaction.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

-- Contentless (content=''): the text is not stored twice, only its tokens. A row's rowid is its
-- item's `items.id`; a search joins `items` for the item, its type (and so its account) and its
-- JSON. Tokens are case-folded and stripped of diacritics (`cafe` finds `Café`).
CREATE VIRTUAL TABLE item_search USING fts5(
    text, content = '', tokenize = 'unicode61 remove_diacritics 2'
);

-- The members searched in the items of a type, when the type names them (`title`, `body`): only
-- the string values under those top-level members are indexed. A type with no row here has every
-- string value of its items indexed.
CREATE TABLE search_members (
    item_type TEXT NOT NULL,
    member TEXT NOT NULL,
    PRIMARY KEY (item_type, member)
) WITHOUT ROWID;

-- The text indexed for an item: its string values (of its searchable members, when its type names
-- them) in document order, one per line. A contentless table deletes a row by being given the text
-- it indexed, so the same expression runs on `old`; `CROSS JOIN` keeps the order fixed. An item
-- whose bytes are not JSON is indexed with no text.
CREATE TRIGGER item_search_insert AFTER INSERT ON items BEGIN
    INSERT INTO item_search (rowid, text) VALUES (new.id, CASE
        WHEN NOT json_valid(new.json) THEN NULL
        WHEN NOT EXISTS (SELECT 1 FROM search_members s WHERE s.item_type = new.type) THEN
            (SELECT group_concat(value, char(10)) FROM json_tree(new.json) WHERE type = 'text')
        ELSE (SELECT group_concat(t.value, char(10)) FROM json_each(new.json) e CROSS JOIN json_tree(new.json, e.fullkey) t
            WHERE t.type = 'text' AND EXISTS (
                SELECT 1 FROM search_members s WHERE s.item_type = new.type AND s.member = e.key))
        END);
END;

CREATE TRIGGER item_search_delete AFTER DELETE ON items BEGIN
    INSERT INTO item_search (item_search, rowid, text) VALUES ('delete', old.id, CASE
        WHEN NOT json_valid(old.json) THEN NULL
        WHEN NOT EXISTS (SELECT 1 FROM search_members s WHERE s.item_type = old.type) THEN
            (SELECT group_concat(value, char(10)) FROM json_tree(old.json) WHERE type = 'text')
        ELSE (SELECT group_concat(t.value, char(10)) FROM json_each(old.json) e CROSS JOIN json_tree(old.json, e.fullkey) t
            WHERE t.type = 'text' AND EXISTS (
                SELECT 1 FROM search_members s WHERE s.item_type = old.type AND s.member = e.key))
        END);
END;

-- An item's type never changes once it is written (no write path updates it): only its JSON does.
CREATE TRIGGER item_search_update AFTER UPDATE OF json ON items WHEN old.json IS NOT new.json BEGIN
    INSERT INTO item_search (item_search, rowid, text) VALUES ('delete', old.id, CASE
        WHEN NOT json_valid(old.json) THEN NULL
        WHEN NOT EXISTS (SELECT 1 FROM search_members s WHERE s.item_type = old.type) THEN
            (SELECT group_concat(value, char(10)) FROM json_tree(old.json) WHERE type = 'text')
        ELSE (SELECT group_concat(t.value, char(10)) FROM json_each(old.json) e CROSS JOIN json_tree(old.json, e.fullkey) t
            WHERE t.type = 'text' AND EXISTS (
                SELECT 1 FROM search_members s WHERE s.item_type = old.type AND s.member = e.key))
        END);
    INSERT INTO item_search (rowid, text) VALUES (new.id, CASE
        WHEN NOT json_valid(new.json) THEN NULL
        WHEN NOT EXISTS (SELECT 1 FROM search_members s WHERE s.item_type = new.type) THEN
            (SELECT group_concat(value, char(10)) FROM json_tree(new.json) WHERE type = 'text')
        ELSE (SELECT group_concat(t.value, char(10)) FROM json_each(new.json) e CROSS JOIN json_tree(new.json, e.fullkey) t
            WHERE t.type = 'text' AND EXISTS (
                SELECT 1 FROM search_members s WHERE s.item_type = new.type AND s.member = e.key))
        END);
END;

-- Existing items are indexed once, here (no type names its members yet).
INSERT INTO item_search (rowid, text)
SELECT id, CASE WHEN json_valid(json) THEN
    (SELECT group_concat(value, char(10)) FROM json_tree(items.json) WHERE type = 'text') END
FROM items;
