-- A page saved unless it brings nothing new, in one call: when p_hold is set and every one of the
-- page's items is listed by a page before p_index of the list's current generation, nothing is
-- written and the one row answered has held set; otherwise the page is saved by save_page
-- (migration 0005) and held is false. A walk then checks and saves a page in one round trip.
-- The function body is one statement: the lines between the two $$ lines do not end statements.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

CREATE FUNCTION save_page_unless_listed(
    p_key TEXT, p_item_type TEXT, p_style TEXT, p_now DOUBLE PRECISION, p_index BIGINT,
    p_keys TEXT[], p_jsons BYTEA[],
    p_token TEXT, p_next_token TEXT, p_total BIGINT, p_etag TEXT, p_last_modified TEXT, p_digest TEXT,
    p_lifetime DOUBLE PRECISION, p_no_cache BOOLEAN, p_stale_while_revalidate DOUBLE PRECISION,
    p_stale_if_error DOUBLE PRECISION, p_vary TEXT, p_vary_key TEXT, p_hold BOOLEAN)
RETURNS TABLE (
    key TEXT, resume_token TEXT, end_reached BOOLEAN, total BIGINT, refreshed_at DOUBLE PRECISION,
    invalidated_at DOUBLE PRECISION, generation BIGINT, last_index BIGINT, last_current_index BIGINT,
    listed BIGINT, held BOOLEAN)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    v_id BIGINT;
    v_generation BIGINT;
    v_listed BIGINT;
BEGIN
    IF p_hold AND p_index > 0 AND cardinality(p_keys) > 0 THEN
        SELECT c.id, c.generation INTO v_id, v_generation
        FROM collections c WHERE c.key = p_key AND c.item_type = p_item_type;
        IF v_id IS NOT NULL THEN
            -- Index probes an item, as save_page counts what earlier pages list.
            SELECT count(*) FILTER (WHERE EXISTS (
                    SELECT 1 FROM page_items pi
                    WHERE pi.collection_id = v_id AND pi.item_id = i.id AND (
                        SELECT p.generation = v_generation AND p.idx < p_index FROM pages p WHERE p.id = pi.page_id)))
            INTO v_listed FROM unnest(p_keys) AS t(k) JOIN items i ON i.type = p_item_type AND i.key = t.k;
            IF v_listed = cardinality(p_keys) THEN
                held := TRUE;
                RETURN NEXT;
                RETURN;
            END IF;
        END IF;
    END IF;
    RETURN QUERY SELECT s.key, s.resume_token, s.end_reached, s.total, s.refreshed_at, s.invalidated_at,
        s.generation, s.last_index, s.last_current_index, s.listed, FALSE
    FROM save_page(p_key, p_item_type, p_style, p_now, p_index, p_keys, p_jsons, p_token, p_next_token, p_total,
        p_etag, p_last_modified, p_digest, p_lifetime, p_no_cache, p_stale_while_revalidate, p_stale_if_error,
        p_vary, p_vary_key) AS s;
END;
$$;
