import Foundation
import Logging
import PostgresNIO
import Slippers
@_spi(Backends) import SlippersStore

extension PostgresCache {
    /// Saves a fetched page, its items and the collection's resume point in one transaction,
    /// by the rules of ``SlippersStore/CacheStore/savePage(_:at:in:now:)``.
    ///
    /// The collection's row is locked for the transaction (`SELECT … FOR UPDATE`): saves of one
    /// list by several workers follow one another, so the committed prefix stays exact.
    ///
    /// - throws: ``SlippersStore/StoreError/pageOutOfOrder(collection:index:)`` when page `index - 1`
    ///   is not cached in the current generation, ``SlippersStore/StoreError/itemTypeMismatch(collection:stored:requested:)``,
    ///   or a ``PostgresCacheError``.
    @discardableResult
    public func savePage(_ page: Page<RawItem>, at index: Int, in collection: CollectionDescriptor) async throws
        -> CollectionHead
    {
        guard index >= 0 else { throw StoreError.pageOutOfOrder(collection: collection.key, index: index) }
        let logger = self.logger
        return try await mappingErrors {
            try await client.withTransaction { connection in
                try await Self.writePage(page, at: index, in: collection, now: Date(), connection, logger: logger)
            }
        }
    }

    /// Writes a page in a handful of statements, each a round trip: the collection's row (made
    /// and locked), where the list stands, the items, the page and its membership, the count of
    /// ids earlier pages list, and the collection's new state with its head.
    private static func writePage(
        _ page: Page<RawItem>, at index: Int, in collection: CollectionDescriptor, now: Date,
        _ connection: PostgresConnection, logger: Logger
    ) async throws -> CollectionHead {
        let stamp = now.timeIntervalSince1970
        // Made on its first page, locked either way: saves of one list follow one another.
        guard
            let row = try await PostgresRows.first(
                """
                INSERT INTO collections (key, item_type, style, created_at)
                VALUES (\(collection.key), \(collection.itemType), \(collection.style), \(stamp))
                ON CONFLICT (key) DO UPDATE SET key = excluded.key
                RETURNING id, item_type, generation
                """, on: connection, logger: logger)
        else { throw StoreError.collectionNotFound(key: collection.key) }
        let collectionID = try row["id"].decode(Int64.self)
        let storedType = try row["item_type"].decode(String.self)
        var generation = try row["generation"].decode(Int.self)
        guard storedType == collection.itemType else {
            throw StoreError.itemTypeMismatch(
                collection: collection.key, stored: storedType, requested: collection.itemType)
        }
        if index == 0 { generation += 1 }
        guard
            let standing = try await PostgresRows.first(
                """
                SELECT EXISTS (SELECT 1 FROM pages WHERE collection_id = \(collectionID) AND idx = \(index)) AS stored,
                    (SELECT next_token FROM pages WHERE collection_id = \(collectionID) AND idx = \(index)) AS stored_next,
                    (SELECT generation FROM pages WHERE collection_id = \(collectionID) AND idx = \(index - 1))
                        AS previous_generation,
                    (SELECT max(idx) FROM pages WHERE collection_id = \(collectionID) AND generation = \(generation))
                        AS last_current
                """, on: connection, logger: logger)
        else { throw StoreError.collectionNotFound(key: collection.key) }
        let stored = try standing["stored"].decode(Bool.self)
        let storedNextToken = try standing["stored_next"].decode(String?.self)
        if index > 0, try standing["previous_generation"].decode(Int?.self) != generation {
            throw StoreError.pageOutOfOrder(collection: collection.key, index: index)
        }
        // The page itself is in the current generation once written.
        let lastCurrent = max(try standing["last_current"].decode(Int?.self) ?? -1, index)
        var repeated = page.items.count - Set(page.items.map(\.key)).count
        let itemIDs = try await upsertItems(page.items, type: collection.itemType, now: stamp, connection, logger)
        try await writePageRow(
            page, index: index, itemIDs: itemIDs, generation: generation, collectionID: collectionID, now: now,
            connection, logger)
        if index > 0, !itemIDs.isEmpty {
            let listed = try await PostgresRows.first(
                """
                SELECT count(DISTINCT pi.item_id) AS listed FROM page_items pi JOIN pages p ON p.id = pi.page_id
                WHERE p.collection_id = \(collectionID) AND p.generation = \(generation) AND p.idx < \(index)
                    AND pi.item_id = ANY(\(itemIDs))
                """, on: connection, logger: logger)
            repeated += try listed?["listed"].decode(Int.self) ?? 0
        }
        let next = page.nextToken?.rawValue
        let demotesLaterPages = stored && storedNextToken != next && !page.isLast && lastCurrent > index
        if demotesLaterPages {
            // The pages after this one were reached through another next token: they no longer follow it.
            try await connection.query(
                """
                UPDATE pages SET generation = \(generation - 1)
                WHERE collection_id = \(collectionID) AND idx > \(index) AND generation = \(generation)
                """, logger: logger)
        }
        if next == nil {
            // A last page ends the list: the pages after it are removed.
            try await connection.query(
                "DELETE FROM pages WHERE collection_id = \(collectionID) AND idx > \(index)", logger: logger)
        }
        // The resume point moves when this page ends the current run (the pages after it were
        // just demoted, or there are none), or the list.
        let movesResumePoint = next == nil || index >= lastCurrent || demotesLaterPages
        guard
            let head = try await PostgresRows.first(
                """
                UPDATE collections c SET generation = \(generation), style = coalesce(\(collection.style), c.style),
                    total = coalesce(\(page.total), c.total),
                    resume_token = CASE WHEN \(movesResumePoint) THEN \(next) ELSE c.resume_token END,
                    end_reached = CASE WHEN \(movesResumePoint) THEN \(next == nil) ELSE c.end_reached END,
                    invalidated_at = CASE WHEN \(index) = 0 THEN NULL ELSE c.invalidated_at END,
                    refreshed_at = CASE WHEN \(index) = 0 THEN \(stamp) ELSE c.refreshed_at END
                WHERE c.id = \(collectionID)
                RETURNING c.*, (SELECT max(idx) FROM pages WHERE collection_id = c.id) AS last_index,
                    (SELECT max(idx) FROM pages WHERE collection_id = c.id AND generation = \(generation))
                        AS last_current_index
                """, on: connection, logger: logger)
        else { throw StoreError.collectionNotFound(key: collection.key) }
        let currentPageCount = (try head["last_current_index"].decode(Int?.self)).map { $0 + 1 } ?? 0
        var saved = try PostgresRows.collectionHead(head, currentPageCount: currentPageCount)
        saved.repeatedItemCount = repeated
        return saved
    }

    /// Writes a page's items and returns their row ids in the page's order, each id once at its first position.
    ///
    /// An id listed twice keeps its later JSON, as one upsert after another would; an item whose
    /// JSON is unchanged is not rewritten. One statement: the rows it writes are returned by the
    /// insert, the others read from the snapshot it started with.
    private static func upsertItems(
        _ items: [RawItem], type: String, now: Double, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [Int64] {
        guard !items.isEmpty else { return [] }
        var order: [String] = []
        var latest: [String: Data] = [:]
        for item in items {
            let key = item.key.postgresText
            if latest.updateValue(item.json, forKey: key) == nil { order.append(key) }
        }
        let jsons = order.map { ByteBuffer(bytes: latest[$0] ?? Data()) }
        var ids: [String: Int64] = [:]
        for row in try await PostgresRows.all(
            """
            WITH written AS (
                INSERT INTO items (type, key, json, updated_at)
                SELECT \(type), t.key, t.json, \(now) FROM unnest(\(order)::text[], \(jsons)::bytea[]) AS t(key, json)
                ON CONFLICT (type, key) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at,
                    edited_locally = FALSE
                WHERE items.json IS DISTINCT FROM excluded.json OR items.edited_locally
                RETURNING id, key)
            SELECT id, key FROM written
            UNION ALL
            SELECT id, key FROM items
            WHERE type = \(type) AND key = ANY(\(order)) AND key NOT IN (SELECT key FROM written)
            """, on: connection, logger: logger)
        {
            ids[try row["key"].decode(String.self)] = try row["id"].decode(Int64.self)
        }
        // A row another transaction wrote meanwhile (a list sharing this item type) left the insert
        // with nothing to write and is not in its snapshot; one removed meanwhile (an eviction) is
        // gone. Both are written again, returning their rows whatever they hold.
        let missing = order.filter { ids[$0] == nil }
        if !missing.isEmpty {
            let missingJSONs = missing.map { ByteBuffer(bytes: latest[$0] ?? Data()) }
            for row in try await PostgresRows.all(
                """
                INSERT INTO items (type, key, json, updated_at)
                SELECT \(type), t.key, t.json, \(now) FROM unnest(\(missing)::text[], \(missingJSONs)::bytea[]) AS t(key, json)
                ON CONFLICT (type, key) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at,
                    edited_locally = FALSE
                RETURNING id, key
                """, on: connection, logger: logger)
            {
                ids[try row["key"].decode(String.self)] = try row["id"].decode(Int64.self)
            }
        }
        return order.compactMap { ids[$0] }
    }

    /// Writes the page's row and its membership, in order, in one statement.
    private static func writePageRow(
        _ page: Page<RawItem>, index: Int, itemIDs: [Int64], generation: Int, collectionID: Int64, now: Date,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        let caching = page.caching
        let stamp = now.timeIntervalSince1970
        let vary = caching.vary.isEmpty ? nil : caching.vary.joined(separator: ",")
        try await connection.query(
            """
            WITH page AS (
                INSERT INTO pages (collection_id, idx, generation, token, next_token, etag, last_modified,
                    fetched_at, item_count, verified_at, digest, lifetime, no_cache, stale_while_revalidate,
                    stale_if_error, vary, vary_key)
                VALUES (\(collectionID), \(index), \(generation), \(page.token?.rawValue), \(page.nextToken?.rawValue),
                    \(page.validators.etag), \(page.validators.lastModified), \(stamp), \(itemIDs.count), \(stamp),
                    \(PageDigest.of(page.items)), \(caching.lifetime(now: now)), \(caching.cacheControl.noCache),
                    \(caching.cacheControl.staleWhileRevalidate), \(caching.cacheControl.staleIfError), \(vary),
                    \(caching.varyKey))
                ON CONFLICT (collection_id, idx) DO UPDATE SET
                    generation = excluded.generation, token = excluded.token, next_token = excluded.next_token,
                    etag = excluded.etag, last_modified = excluded.last_modified, fetched_at = excluded.fetched_at,
                    item_count = excluded.item_count, verified_at = excluded.verified_at, digest = excluded.digest,
                    lifetime = excluded.lifetime, no_cache = excluded.no_cache,
                    stale_while_revalidate = excluded.stale_while_revalidate,
                    stale_if_error = excluded.stale_if_error, vary = excluded.vary, vary_key = excluded.vary_key
                RETURNING id),
            tail AS (
                DELETE FROM page_items WHERE page_id = (SELECT id FROM page) AND position >= \(itemIDs.count))
            INSERT INTO page_items (page_id, position, item_id)
            SELECT (SELECT id FROM page), t.ordinality - 1, t.id
            FROM unnest(\(itemIDs)::bigint[]) WITH ORDINALITY AS t(id, ordinality)
            ON CONFLICT (page_id, position) DO UPDATE SET item_id = excluded.item_id
                WHERE page_items.item_id IS DISTINCT FROM excluded.item_id
            """, logger: logger)
    }

    /// A collection's head: its row and where its current generation ends.
    static func collectionHead(_ key: String, _ connection: PostgresConnection, _ logger: Logger) async throws
        -> CollectionHead?
    {
        guard
            let row = try await PostgresRows.first(
                """
                SELECT c.*, (SELECT max(idx) FROM pages WHERE collection_id = c.id) AS last_index,
                    (SELECT max(idx) FROM pages WHERE collection_id = c.id AND generation = c.generation)
                        AS last_current_index
                FROM collections c WHERE c.key = \(key)
                """, on: connection, logger: logger)
        else { return nil }
        let lastCurrent = try row["last_current_index"].decode(Int?.self)
        return try PostgresRows.collectionHead(row, currentPageCount: lastCurrent.map { $0 + 1 } ?? 0)
    }

    /// The tokens of the pages of a generation before `index`.
    public func walkedTokens(in key: String, before index: Int, generation: Int) async throws -> Set<PageToken> {
        try await mappingErrors {
            var walked: Set<PageToken> = []
            let rows = try await client.rows(
                """
                SELECT p.token FROM pages p JOIN collections c ON c.id = p.collection_id
                WHERE c.key = \(key) AND p.generation = \(generation) AND p.idx < \(index)
                """)
            for row in rows {
                let token = try row["token"].decode(String?.self)
                if let token { walked.insert(PageToken(rawValue: token)) }
            }
            return walked
        }
    }

    /// How many of `keys` no page of the current generation before `index` lists.
    public func unlistedCount(of keys: Set<ItemKey>, before index: Int, in key: String) async throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try await mappingErrors {
            let texts = keys.map(\.postgresText)
            let rows = try await client.rows(
                """
                SELECT count(DISTINCT i.id) FROM collections c
                JOIN items i ON i.type = c.item_type AND i.key = ANY(\(texts))
                JOIN page_items pi ON pi.item_id = i.id
                JOIN pages p ON p.id = pi.page_id AND p.collection_id = c.id
                WHERE c.key = \(key) AND p.generation = c.generation AND p.idx < \(index)
                """)
            var listed = 0
            for row in rows { listed = try row["count"].decode(Int.self) }
            return keys.count - listed
        }
    }

    /// Nothing to do: a PostgreSQL cache keeps no budget.
    public func syncWillStart(_ key: String) async {}

    /// Nothing to do: a PostgreSQL cache keeps no budget.
    public func syncDidEnd(_ key: String) async {}

    /// Logs the retry at `info`.
    public func pageWillBeRetried(at index: Int, in key: String, error: any Error, wait: Duration) {
        logger.info(
            "retrying page",
            metadata: ["collection": "\(key)", "page": "\(index)", "delay": "\(wait)", "error": "\(error)"])
    }
}
