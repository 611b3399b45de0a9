import Foundation
import Logging
import PostgresNIO
import Slippers
import SlippersStorage

/// The head of a list whose new items come first, by the rules of `SQLiteCache`'s.
extension PostgresCache {
    /// Whether the list's new items come first: `nil` until ``setNewestFirst(_:for:)`` records it
    /// (or the list is not cached).
    public func newestFirst(_ key: String) async throws -> Bool? {
        try await mappingErrors {
            try await client.rows("SELECT newest_first FROM collections WHERE key = \(key)").first.map {
                try $0["newest_first"].decode(Bool?.self)
            } ?? nil
        }
    }

    /// Records whether the list's new items come first.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a ``PostgresCacheError``.
    public func setNewestFirst(_ newestFirst: Bool, for key: String) async throws {
        let updated = try await mappingErrors {
            try await client.rows(
                "UPDATE collections SET newest_first = \(newestFirst) WHERE key = \(key) RETURNING id")
        }
        guard !updated.isEmpty else { throw CacheError.listNotFound(key: key) }
    }

    /// How many of `items` a page of the list's current generation lists with the same JSON.
    public func unchangedCount(of items: [RawItem], in key: String) async throws -> Int {
        guard !items.isEmpty else { return 0 }
        return try await mappingErrors {
            try await client.withConnection { [self] connection in
                guard
                    let list = try await PostgresRows.first(
                        "SELECT id, item_type, generation FROM collections WHERE key = \(key)", on: connection,
                        logger: logger)
                else { return 0 }
                let stored = try await Self.storedItems(
                    of: items, listID: try list["id"].decode(Int64.self),
                    type: try list["item_type"].decode(String.self),
                    generation: try list["generation"].decode(Int.self), connection, logger)
                return items.count { item in
                    guard let found = stored[item.key.postgresText] else { return false }
                    return found.listed && found.json == item.json
                }
            }
        }
    }

    /// Merges the first items of a list, as its server now sends them, into the cached list, in one
    /// transaction: see `CacheStorage.mergeHead(_:total:in:)`.
    @discardableResult
    public func mergeHead(_ items: [RawItem], total: Int?, in list: ListDescriptor) async throws
        -> HeadMerge
    {
        let logger = self.logger
        return try await mappingErrors {
            try await client.withTransactionStreaming { connection in
                guard
                    let head = try await PostgresRows.first(
                        """
                        SELECT c.id, c.item_type, c.generation, p.id AS first_page FROM collections c
                        JOIN pages p ON p.collection_id = c.id AND p.idx = 0 AND p.generation = c.generation
                        WHERE c.key = \(list.key) FOR UPDATE OF c
                        """, on: connection, logger: logger)
                else { throw CacheError.listNotFound(key: list.key) }
                let listID = try head["id"].decode(Int64.self)
                let type = try head["item_type"].decode(String.self)
                let firstPage = try head["first_page"].decode(Int64.self)
                let stored = try await Self.storedItems(
                    of: items, listID: listID, type: type,
                    generation: try head["generation"].decode(Int.self), connection, logger)
                // Each id once, at its first position, with the later JSON, as a saved page keeps it.
                var keys: [String] = []
                var latest: [String: Data] = [:]
                for item in items where latest.updateValue(item.json, forKey: item.key.postgresText) == nil {
                    keys.append(item.key.postgresText)
                }
                let now = Date().timeIntervalSince1970
                var added: [Int64] = []
                var updated = 0
                for key in keys {
                    let json = ByteBuffer(bytes: latest[key] ?? Data())
                    if let found = stored[key] {
                        guard found.json != latest[key] else {
                            if !found.listed { added.append(found.id) }
                            continue
                        }
                        try await connection.query(
                            """
                            UPDATE items SET json = \(json), updated_at = \(now), edited_locally = FALSE
                            WHERE id = \(found.id)
                            """, logger: logger)
                        if found.listed { updated += 1 } else { added.append(found.id) }
                    } else {
                        let inserted = try await PostgresRows.first(
                            """
                            INSERT INTO items (type, key, json, updated_at) VALUES (\(type), \(key), \(json), \(now))
                            RETURNING id
                            """, on: connection, logger: logger)
                        if let id = try inserted?["id"].decode(Int64.self) { added.append(id) }
                    }
                }
                if !added.isEmpty {
                    // The rows move through negative positions, so that no two ever hold one.
                    let count = added.count
                    try await connection.query(
                        "UPDATE page_items SET position = -(position + \(count)) - 1 WHERE page_id = \(firstPage)",
                        logger: logger)
                    try await connection.query(
                        "UPDATE page_items SET position = -position - 1 WHERE page_id = \(firstPage) AND position < 0",
                        logger: logger)
                    let positions = Array(0..<Int64(count))
                    try await connection.query(
                        """
                        INSERT INTO page_items (page_id, position, item_id, collection_id)
                        SELECT \(firstPage), t.position, t.item_id, \(listID)
                        FROM unnest(\(positions)::bigint[], \(added)::bigint[]) AS t(position, item_id)
                        """, logger: logger)
                    try await connection.query(
                        "UPDATE pages SET item_count = item_count + \(count), digest = NULL WHERE id = \(firstPage)",
                        logger: logger)
                }
                if let total {
                    try await connection.query(
                        "UPDATE collections SET total = \(total) WHERE id = \(listID)", logger: logger)
                }
                return HeadMerge(added: added.count, updated: updated)
            }
        }
    }

    /// The stored items of a type among those of `items`, by key text, with whether a page of the
    /// list's `generation` lists them.
    private static func storedItems(
        of items: [RawItem], listID: Int64, type: String, generation: Int, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> [String: (id: Int64, json: Data, listed: Bool)] {
        let texts = Array(Set(items.map(\.key.postgresText)))
        var found: [String: (id: Int64, json: Data, listed: Bool)] = [:]
        for row in try await PostgresRows.all(
            """
            SELECT i.id, i.key, i.json, EXISTS (
                    SELECT 1 FROM page_items pi JOIN pages p ON p.id = pi.page_id
                    WHERE pi.collection_id = \(listID) AND pi.item_id = i.id AND p.generation = \(generation)
                ) AS listed
            FROM items i WHERE i.type = \(type) AND i.key = ANY(\(texts))
            """, on: connection, logger: logger)
        {
            found[try row["key"].decode(String.self)] = (
                try row["id"].decode(Int64.self), try row["json"].decode(Data.self), try row["listed"].decode(Bool.self)
            )
        }
        return found
    }
}
