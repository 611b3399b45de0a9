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

-- The text indexed for an item: its string values, in document order, one per line. A contentless
-- table deletes a row by being given the text it indexed, so the same expression runs on `old.json`.
-- An item whose bytes are not JSON is indexed with no text.
CREATE TRIGGER item_search_insert AFTER INSERT ON items BEGIN
    INSERT INTO item_search (rowid, text) VALUES (new.id, CASE WHEN json_valid(new.json) THEN
        (SELECT group_concat(value, char(10)) FROM json_tree(new.json) WHERE type = 'text') END);
END;

CREATE TRIGGER item_search_delete AFTER DELETE ON items BEGIN
    INSERT INTO item_search (item_search, rowid, text) VALUES ('delete', old.id, CASE WHEN json_valid(old.json) THEN
        (SELECT group_concat(value, char(10)) FROM json_tree(old.json) WHERE type = 'text') END);
END;

CREATE TRIGGER item_search_update AFTER UPDATE OF json ON items WHEN old.json IS NOT new.json BEGIN
    INSERT INTO item_search (item_search, rowid, text) VALUES ('delete', old.id, CASE WHEN json_valid(old.json) THEN
        (SELECT group_concat(value, char(10)) FROM json_tree(old.json) WHERE type = 'text') END);
    INSERT INTO item_search (rowid, text) VALUES (new.id, CASE WHEN json_valid(new.json) THEN
        (SELECT group_concat(value, char(10)) FROM json_tree(new.json) WHERE type = 'text') END);
END;

-- Existing items are indexed once, here.
INSERT INTO item_search (rowid, text)
SELECT id, CASE WHEN json_valid(json) THEN
    (SELECT group_concat(value, char(10)) FROM json_tree(items.json) WHERE type = 'text') END
FROM items;
