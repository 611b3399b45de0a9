-- Offline full-text search: each item's string values as a tsvector (the 'simple' configuration,
-- lowercased and stripped of Latin diacritics, so `cafe` finds `Café`), computed by the search
-- from the items of its list or type: nothing is added to a write.
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
