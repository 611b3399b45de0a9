-- save_page, replaced: it can hold a page that brings nothing new, so that a walk checks and saves
-- a page in one round trip, and it looks each of a page's keys up with an index probe of its own.
-- When p_hold is set and every one of the page's items is listed by a page before p_index of the
-- list's current generation, nothing is written and the one row answered has held set (the other
-- columns null); otherwise the page is saved as migration 0005's function saved it.
-- The lookups are subplans, one a key: a join of the page's keys with items would be planned once
-- per session, on the statistics of a young database, and then scan every item of the type.
-- The function body is one statement: the lines between the two $$ lines do not end statements.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

DROP FUNCTION IF EXISTS save_page(
    TEXT, TEXT, TEXT, DOUBLE PRECISION, BIGINT, TEXT[], BYTEA[], TEXT, TEXT, BIGINT, TEXT, TEXT, TEXT,
    DOUBLE PRECISION, BOOLEAN, DOUBLE PRECISION, DOUBLE PRECISION, TEXT, TEXT);

CREATE OR REPLACE FUNCTION save_page(
    p_key TEXT, p_item_type TEXT, p_style TEXT, p_now DOUBLE PRECISION, p_index BIGINT,
    -- The page's item keys, each once, in the page's order, and the JSON each keeps.
    p_keys TEXT[], p_jsons BYTEA[],
    p_token TEXT, p_next_token TEXT, p_total BIGINT, p_etag TEXT, p_last_modified TEXT, p_digest TEXT,
    p_lifetime DOUBLE PRECISION, p_no_cache BOOLEAN, p_stale_while_revalidate DOUBLE PRECISION,
    p_stale_if_error DOUBLE PRECISION, p_vary TEXT, p_vary_key TEXT,
    -- Whether a page whose items earlier pages of the generation all list is held, not written.
    p_hold BOOLEAN)
RETURNS TABLE (
    key TEXT, resume_token TEXT, end_reached BOOLEAN, total BIGINT, refreshed_at DOUBLE PRECISION,
    invalidated_at DOUBLE PRECISION, generation BIGINT, last_index BIGINT, last_current_index BIGINT,
    -- How many of the page's items earlier pages of the generation list already.
    listed BIGINT,
    -- Whether the page was held: nothing written, the other columns null.
    held BOOLEAN)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    v_id BIGINT;
    v_type TEXT;
    v_generation BIGINT;
    v_stored BOOLEAN;
    v_stored_next TEXT;
    v_previous BIGINT;
    v_last_current BIGINT;
    v_item_ids BIGINT[];
    v_page_id BIGINT;
    v_demotes BOOLEAN;
    v_moves BOOLEAN;
    v_known BIGINT[];
BEGIN
    -- Made on its first page, locked either way: saves of one list follow one another.
    INSERT INTO collections AS c (key, item_type, style, created_at)
    VALUES (p_key, p_item_type, p_style, p_now)
    ON CONFLICT (key) DO UPDATE SET key = excluded.key
    RETURNING c.id, c.item_type, c.generation INTO v_id, v_type, v_generation;
    IF v_type <> p_item_type THEN
        RAISE EXCEPTION 'item type mismatch' USING ERRCODE = 'SLP02', DETAIL = v_type;
    END IF;
    IF p_index = 0 THEN
        v_generation := v_generation + 1;
    END IF;

    -- How many of the page's items earlier pages of the generation list, counted before anything
    -- is written (the save changes no earlier page). Each key is looked up by a subplan of its
    -- own, an index probe, and so is each membership: the plan depends neither on how many pages
    -- the list has nor on the statistics of a young database, and is planned once per session.
    listed := 0;
    IF p_index > 0 AND cardinality(p_keys) > 0 THEN
        SELECT coalesce(array_agg(s.id) FILTER (WHERE s.id IS NOT NULL), '{}') INTO v_known
        FROM (SELECT (SELECT i.id FROM items i WHERE i.type = p_item_type AND i.key = t.k) AS id
            FROM unnest(p_keys) AS t(k)) AS s;
        IF cardinality(v_known) > 0 THEN
            SELECT count(*) FILTER (WHERE EXISTS (
                    SELECT 1 FROM page_items pi
                    WHERE pi.collection_id = v_id AND pi.item_id = t.id AND (
                        SELECT p.generation = v_generation AND p.idx < p_index FROM pages p WHERE p.id = pi.page_id)))
            INTO listed FROM unnest(v_known) AS t(id);
        END IF;
        -- A page all of whose items earlier pages list is held when asked: nothing is written.
        IF p_hold AND listed = cardinality(p_keys) THEN
            listed := NULL;
            held := TRUE;
            RETURN NEXT;
            RETURN;
        END IF;
    END IF;

    SELECT TRUE, p.next_token INTO v_stored, v_stored_next
    FROM pages p WHERE p.collection_id = v_id AND p.idx = p_index;
    v_stored := coalesce(v_stored, FALSE);
    IF p_index > 0 THEN
        SELECT p.generation INTO v_previous FROM pages p WHERE p.collection_id = v_id AND p.idx = p_index - 1;
        IF v_previous IS DISTINCT FROM v_generation THEN
            RAISE EXCEPTION 'page out of order' USING ERRCODE = 'SLP01';
        END IF;
    END IF;
    -- The page itself is in the current generation once written.
    SELECT max(p.idx) INTO v_last_current FROM pages p WHERE p.collection_id = v_id AND p.generation = v_generation;
    v_last_current := greatest(coalesce(v_last_current, -1), p_index);

    -- The items: written where new or changed (or edited locally), then read back in the page's order.
    INSERT INTO items AS i (type, key, json, updated_at)
    SELECT p_item_type, t.k, t.j, p_now FROM unnest(p_keys, p_jsons) AS t(k, j)
    ON CONFLICT (type, key) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at,
        edited_locally = FALSE
    WHERE i.json IS DISTINCT FROM excluded.json OR i.edited_locally;
    SELECT coalesce(array_agg(s.id ORDER BY s.n) FILTER (WHERE s.id IS NOT NULL), '{}') INTO v_item_ids
    FROM (SELECT t.n, (SELECT i.id FROM items i WHERE i.type = p_item_type AND i.key = t.k) AS id
        FROM unnest(p_keys) WITH ORDINALITY AS t(k, n)) AS s;
    IF cardinality(v_item_ids) < cardinality(p_keys) THEN
        -- Rows removed since the insert (an eviction) are written again, whatever they held.
        INSERT INTO items AS i (type, key, json, updated_at)
        SELECT p_item_type, t.k, t.j, p_now FROM unnest(p_keys, p_jsons) AS t(k, j)
        ON CONFLICT (type, key) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at,
            edited_locally = FALSE;
        SELECT coalesce(array_agg(s.id ORDER BY s.n) FILTER (WHERE s.id IS NOT NULL), '{}') INTO v_item_ids
        FROM (SELECT t.n, (SELECT i.id FROM items i WHERE i.type = p_item_type AND i.key = t.k) AS id
            FROM unnest(p_keys) WITH ORDINALITY AS t(k, n)) AS s;
    END IF;

    -- The page and its membership, in order.
    INSERT INTO pages AS p (collection_id, idx, generation, token, next_token, etag, last_modified,
        fetched_at, item_count, verified_at, digest, lifetime, no_cache, stale_while_revalidate,
        stale_if_error, vary, vary_key)
    VALUES (v_id, p_index, v_generation, p_token, p_next_token, p_etag, p_last_modified, p_now,
        cardinality(v_item_ids), p_now, p_digest, p_lifetime, p_no_cache, p_stale_while_revalidate,
        p_stale_if_error, p_vary, p_vary_key)
    ON CONFLICT (collection_id, idx) DO UPDATE SET
        generation = excluded.generation, token = excluded.token, next_token = excluded.next_token,
        etag = excluded.etag, last_modified = excluded.last_modified, fetched_at = excluded.fetched_at,
        item_count = excluded.item_count, verified_at = excluded.verified_at, digest = excluded.digest,
        lifetime = excluded.lifetime, no_cache = excluded.no_cache,
        stale_while_revalidate = excluded.stale_while_revalidate,
        stale_if_error = excluded.stale_if_error, vary = excluded.vary, vary_key = excluded.vary_key
    RETURNING p.id INTO v_page_id;
    DELETE FROM page_items pi WHERE pi.page_id = v_page_id AND pi.position >= cardinality(v_item_ids);
    INSERT INTO page_items AS pi (page_id, position, item_id, collection_id)
    SELECT v_page_id, t.n - 1, t.id, v_id FROM unnest(v_item_ids) WITH ORDINALITY AS t(id, n)
    ON CONFLICT (page_id, position) DO UPDATE SET item_id = excluded.item_id
        WHERE pi.item_id IS DISTINCT FROM excluded.item_id;

    held := FALSE;

    -- The pages after this one were reached through another next token: they no longer follow it.
    v_demotes := v_stored AND v_stored_next IS DISTINCT FROM p_next_token AND p_next_token IS NOT NULL
        AND v_last_current > p_index;
    IF v_demotes THEN
        UPDATE pages p SET generation = v_generation - 1
        WHERE p.collection_id = v_id AND p.idx > p_index AND p.generation = v_generation;
    END IF;
    -- A last page ends the list: the pages after it are removed.
    IF p_next_token IS NULL THEN
        DELETE FROM pages p WHERE p.collection_id = v_id AND p.idx > p_index;
    END IF;
    -- The resume point moves when this page ends the current run (the pages after it were just
    -- demoted, or there are none), or the list.
    v_moves := p_next_token IS NULL OR p_index >= v_last_current OR v_demotes;
    UPDATE collections c SET generation = v_generation, style = coalesce(p_style, c.style),
        total = coalesce(p_total, c.total),
        resume_token = CASE WHEN v_moves THEN p_next_token ELSE c.resume_token END,
        end_reached = CASE WHEN v_moves THEN p_next_token IS NULL ELSE c.end_reached END,
        invalidated_at = CASE WHEN p_index = 0 THEN NULL ELSE c.invalidated_at END,
        refreshed_at = CASE WHEN p_index = 0 THEN p_now ELSE c.refreshed_at END
    WHERE c.id = v_id
    RETURNING c.key, c.resume_token, c.end_reached, c.total, c.refreshed_at, c.invalidated_at, c.generation
    INTO key, resume_token, end_reached, total, refreshed_at, invalidated_at, generation;
    SELECT max(p.idx) INTO last_index FROM pages p WHERE p.collection_id = v_id;
    SELECT max(p.idx) INTO last_current_index FROM pages p WHERE p.collection_id = v_id AND p.generation = v_generation;
    RETURN NEXT;
END;
$$;
