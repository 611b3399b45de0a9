-- Items of different origins never share rows, and a page lists each item once.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

-- 1. Item types shared by lists of different origins are split, one type per
-- origin (`ids` becomes `ids@https://a.example` and `ids@https://b.example`).
-- Each list keeps the items its pages list, copied under its new type; a type
-- used by one origin only is left as it is. The origin of a list is the
-- scheme, host and port of its key, which is a URL for the lists `sync` makes.
CREATE TABLE migration_split_types AS
WITH origins AS (
    SELECT id, item_type,
        substr(key, 1, instr(key, '://') + 2)
            || substr(
                substr(key, instr(key, '://') + 3), 1,
                instr(substr(key, instr(key, '://') + 3) || '/', '/') - 1) AS origin
    FROM collections
    WHERE key LIKE 'http://%' OR key LIKE 'https://%'
)
SELECT id AS collection_id, item_type || '@' || origin AS new_type
FROM origins
WHERE item_type IN (SELECT item_type FROM origins GROUP BY item_type HAVING count(DISTINCT origin) > 1);

CREATE TABLE migration_moved_items AS
SELECT DISTINCT pi.item_id FROM page_items pi
JOIN pages p ON p.id = pi.page_id
JOIN migration_split_types s ON s.collection_id = p.collection_id;

INSERT OR IGNORE INTO items (type, key, json, updated_at)
SELECT s.new_type, i.key, i.json, i.updated_at
FROM migration_split_types s
JOIN pages p ON p.collection_id = s.collection_id
JOIN page_items pi ON pi.page_id = p.id
JOIN items i ON i.id = pi.item_id;

UPDATE page_items SET item_id = (
    SELECT n.id FROM pages p
    JOIN migration_split_types s ON s.collection_id = p.collection_id
    JOIN items o ON o.id = page_items.item_id
    JOIN items n ON n.type = s.new_type AND n.key = o.key
    WHERE p.id = page_items.page_id)
WHERE page_id IN (SELECT p.id FROM pages p JOIN migration_split_types s ON s.collection_id = p.collection_id);

UPDATE collections SET item_type = (
    SELECT new_type FROM migration_split_types WHERE collection_id = collections.id)
WHERE id IN (SELECT collection_id FROM migration_split_types);

-- The old rows the split lists took copies of, where no page lists them any more.
DELETE FROM items
WHERE id IN (SELECT item_id FROM migration_moved_items)
    AND NOT EXISTS (SELECT 1 FROM page_items WHERE item_id = items.id);

DROP TABLE migration_moved_items;
DROP TABLE migration_split_types;

-- 2. A page that listed an id twice lists it once, at its first position;
-- its positions are renumbered from 0 without gaps (through negative numbers,
-- so that no two rows ever hold one position), and its item count recounted.
CREATE TABLE migration_repeating_pages AS
SELECT DISTINCT a.page_id FROM page_items a
JOIN page_items b ON b.page_id = a.page_id AND b.item_id = a.item_id AND b.position > a.position;

DELETE FROM page_items
WHERE page_id IN (SELECT page_id FROM migration_repeating_pages) AND EXISTS (
    SELECT 1 FROM page_items e
    WHERE e.page_id = page_items.page_id AND e.item_id = page_items.item_id AND e.position < page_items.position);

CREATE TABLE migration_positions AS
SELECT pi.page_id, pi.position, (
    SELECT count(*) FROM page_items e WHERE e.page_id = pi.page_id AND e.position < pi.position) AS new_position
FROM page_items pi
WHERE pi.page_id IN (SELECT page_id FROM migration_repeating_pages);

UPDATE page_items SET position = -1 - (
    SELECT new_position FROM migration_positions m
    WHERE m.page_id = page_items.page_id AND m.position = page_items.position)
WHERE page_id IN (SELECT page_id FROM migration_repeating_pages);
UPDATE page_items SET position = -1 - position
WHERE page_id IN (SELECT page_id FROM migration_repeating_pages);

UPDATE pages SET item_count = (SELECT count(*) FROM page_items WHERE page_id = pages.id)
WHERE id IN (SELECT page_id FROM migration_repeating_pages);

DROP TABLE migration_positions;
DROP TABLE migration_repeating_pages;
