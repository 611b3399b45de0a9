-- A read-only SQL view per item type, for sqlite3, Datasette and any SQL tool: one column per
-- member seen in the type's items. These tables record what the views are made of; the views
-- themselves are made (and made again when new members appear) by the store, as pages are saved.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

-- The members seen in the items of each type: top-level members (`nested` empty) and the members
-- of objects one level down (`author` and `name` for `author_name`), each with the JSON kinds seen
-- as a set of bits: 1 null, 2 true, 4 false, 8 integer, 16 real, 32 text, 64 array, 128 object.
CREATE TABLE item_members (
    item_type TEXT NOT NULL,
    member TEXT NOT NULL,
    nested TEXT NOT NULL DEFAULT '',
    kinds INTEGER NOT NULL,
    PRIMARY KEY (item_type, member, nested)
) WITHOUT ROWID;

-- The views the store made, by name, with the SQL of each: only these are ever dropped by it.
CREATE TABLE item_views (
    name TEXT PRIMARY KEY,
    sql TEXT NOT NULL
) WITHOUT ROWID;

-- The members of the items already cached; their views are made when the file is next written.
INSERT INTO item_members (item_type, member, nested, kinds)
SELECT i.type, e.key, '',
    CASE e.type WHEN 'null' THEN 1 WHEN 'true' THEN 2 WHEN 'false' THEN 4 WHEN 'integer' THEN 8
        WHEN 'real' THEN 16 WHEN 'text' THEN 32 WHEN 'array' THEN 64 ELSE 128 END
FROM items i, json_each(i.json) e
WHERE json_valid(i.json) AND json_type(i.json) = 'object'
UNION
SELECT i.type, e.key, f.key,
    CASE f.type WHEN 'null' THEN 1 WHEN 'true' THEN 2 WHEN 'false' THEN 4 WHEN 'integer' THEN 8
        WHEN 'real' THEN 16 WHEN 'text' THEN 32 WHEN 'array' THEN 64 ELSE 128 END
FROM items i, json_each(i.json) e, json_each(e.value) f
WHERE json_valid(i.json) AND json_type(i.json) = 'object' AND e.type = 'object'
ON CONFLICT DO UPDATE SET kinds = kinds | excluded.kinds;
