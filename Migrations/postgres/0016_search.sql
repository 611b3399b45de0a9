-- Offline full-text search: each item's string values as a tsvector (the 'simple' configuration,
-- lowercased and stripped of Latin diacritics, so `cafe` finds `Café`), kept by a trigger in the
-- statement that writes the item, with a GIN index.
-- Written to run again over itself (a database whose migrations were partly rolled back by hand).
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

-- Lowercase, without the diacritics of the Latin letters that decompose into an ASCII letter and
-- marks (é, ñ, ü, ą, ș…): an immutable function of its own rather than the unaccent extension,
-- which needs privileges and lives in one schema of the database.
CREATE OR REPLACE FUNCTION slippers_unaccent(text TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT translate(lower(text),
        'àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉċčďēĕėęěĝğġģĥĩīĭįĵķĺļľńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżžơưǎǐǒǔǖǘǚǜǟǡǧǩǫǭǰǵǹǻȁȃȅȇȉȋȍȏȑȓȕȗșțȟȧȩȫȭȯȱȳ',
        'aaaaaaceeeeiiiinooooouuuuyyaaaccccdeeeeegggghiiiijklllnnnooorrrssssttuuuuuuwyzzzouaiouuuuuaagkoojgnaaaeeiioorruusthaeooooy');
$$;

-- The text searched in an item: its string values at any depth, one per line; NULL for bytes that
-- are not JSON (such an item is kept, and found by no search).
CREATE OR REPLACE FUNCTION slippers_item_search_text(json BYTEA) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN (
        SELECT string_agg(value #>> '{}', E'\n')
        FROM jsonb_path_query(convert_from(json, 'UTF8')::jsonb, 'strict $.**') AS value
        WHERE jsonb_typeof(value) = 'string');
EXCEPTION WHEN others THEN
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION slippers_item_search_vector(json BYTEA) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
    SELECT to_tsvector('simple'::regconfig, slippers_unaccent(coalesce(slippers_item_search_text(json), '')));
$$;

ALTER TABLE items ADD COLUMN IF NOT EXISTS search tsvector;

CREATE OR REPLACE FUNCTION slippers_items_search_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search := slippers_item_search_vector(NEW.json);
    RETURN NEW;
END;
$$;

DROP TRIGGER IF EXISTS items_search ON items;
CREATE TRIGGER items_search BEFORE INSERT OR UPDATE OF json ON items
FOR EACH ROW EXECUTE FUNCTION slippers_items_search_trigger();

UPDATE items SET search = slippers_item_search_vector(json);

CREATE INDEX IF NOT EXISTS items_by_search ON items USING GIN (search);
