import Foundation
import PostgresNIO
import Slippers
import SlippersStorage

extension PostgresCache {
    /// The tables of our schema, in the order `VACUUM` and sizes go through them.
    static let tables = ["collections", "pages", "page_items", "items", "queue"]

    /// Figures of the whole cache; `fileSize` is the size on disk of our schema's tables and indexes.
    public func stats() async throws -> CacheStats {
        let applied = try await appliedMigrations()
        let accounts = try await accounts().map(\.description)
        var stats = try await mappingErrors {
            try await client.withConnection { [self] connection in
                guard
                    let row = try await PostgresRows.first(
                        """
                        SELECT (SELECT count(*) FROM collections) AS lists, (SELECT count(*) FROM pages) AS pages,
                            (SELECT count(*) FROM items) AS items,
                            (SELECT count(*) FROM items WHERE NOT EXISTS
                                (SELECT 1 FROM page_items WHERE item_id = items.id)) AS unreferenced,
                            (SELECT coalesce(sum(length(json)), 0)::bigint FROM items) AS item_bytes,
                            (SELECT min(fetched_at) FROM pages) AS oldest, (SELECT max(fetched_at) FROM pages) AS newest,
                            (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
                                JOIN pg_namespace n ON n.oid = c.relnamespace
                                WHERE n.nspname = current_schema() AND c.relkind = 'r') AS size
                        """, on: connection, logger: logger)
                else { throw CacheError.listNotFound(key: "statistics") }
                return CacheStats(
                    path: location.description, fileSize: try row["size"].decode(Int64.self),
                    lists: try row["lists"].decode(Int.self), pages: try row["pages"].decode(Int.self),
                    items: try row["items"].decode(Int.self),
                    unreferencedItems: try row["unreferenced"].decode(Int.self),
                    itemBytes: try row["item_bytes"].decode(Int64.self),
                    oldestPage: try row["oldest"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                    newestPage: try row["newest"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                    schemaVersion: applied.last)
            }
        }
        stats.accounts = accounts
        return stats
    }

    /// Checks the cache: its migrations, and that each page lists as many items as its row says.
    ///
    /// The database's own integrity is PostgreSQL's (foreign keys are enforced, so there are no orphans):
    /// `integrity` is `["ok"]` when the connection works.
    public func diagnose() async throws -> Diagnosis {
        let applied = try await appliedMigrations()
        return try await mappingErrors {
            try await client.withConnection { [self] connection in
                let inconsistent = try await PostgresRows.all(
                    """
                    SELECT c.key, p.idx, p.item_count, count(pi.position) AS members
                    FROM pages p JOIN collections c ON c.id = p.collection_id
                    LEFT JOIN page_items pi ON pi.page_id = p.id
                    GROUP BY c.key, p.id HAVING count(pi.position) != p.item_count
                    """, on: connection, logger: logger
                ).map { row in
                    "\(try row["key"].decode(String.self)) page \(try row["idx"].decode(Int.self)) says "
                        + "\(try row["item_count"].decode(Int.self)) items but lists \(try row["members"].decode(Int.self))"
                }
                return Diagnosis(
                    integrity: ["ok"], appliedMigrations: applied, knownMigrations: Self.knownMigrations, orphans: [],
                    inconsistentPages: inconsistent)
            }
        }
    }

    /// Invalidates a list: every one of its pages is unverified.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a ``PostgresCacheError``.
    public func invalidate(_ key: String) async throws {
        let now = Date().timeIntervalSince1970
        try await mappingErrors {
            let rows = try await client.rows(
                "UPDATE collections SET invalidated_at = \(now), unverified_before = \(now) WHERE key = \(key) RETURNING id"
            )
            var found = false
            found = !rows.isEmpty
            guard found else { throw CacheError.listNotFound(key: key) }
        }
    }

    /// Invalidates every list and returns how many there are.
    @discardableResult
    public func invalidateAll() async throws -> Int {
        let now = Date().timeIntervalSince1970
        return try await mappingErrors {
            let rows = try await client.rows(
                "UPDATE collections SET invalidated_at = \(now), unverified_before = \(now) RETURNING id")
            var count = 0
            count = rows.count
            return count
        }
    }

    /// Removes the lists whose newest page was fetched before `date`, then the items no page lists.
    @discardableResult
    public func evict(olderThan date: Date) async throws -> EvictionReport {
        try await deleteLists(
            """
            SELECT c.id FROM collections c LEFT JOIN pages p ON p.collection_id = c.id
            GROUP BY c.id HAVING coalesce(max(p.fetched_at), c.created_at) < \(date.timeIntervalSince1970)
            """)
    }

    /// Removes one list and its pages, then the items no page lists.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a ``PostgresCacheError``.
    @discardableResult
    public func evict(list key: String) async throws -> EvictionReport {
        guard try await listExists(key) else { throw CacheError.listNotFound(key: key) }
        return try await deleteLists("SELECT id FROM collections WHERE key = \(key)")
    }

    /// Deletes the lists whose ids `selection` returns, in one transaction, and the items left unlisted.
    private func deleteLists(_ selection: PostgresQuery) async throws -> EvictionReport {
        try await mappingErrors {
            // However long it takes: removing large lists is not a stuck operation.
            try await client.withTransactionStreaming { connection in
                let ids = try await PostgresRows.all(selection, on: connection, logger: logger).map {
                    try $0["id"].decode(Int64.self)
                }
                var report = EvictionReport()
                guard !ids.isEmpty else { return report }
                let pages = try await PostgresRows.first(
                    "SELECT count(*) AS pages FROM pages WHERE collection_id = ANY(\(ids))", on: connection,
                    logger: logger)
                report.pages = try pages?["pages"].decode(Int.self) ?? 0
                // A list removed forgets its watermark: an incremental sync of it walks it whole again.
                _ = try await PostgresRows.all(
                    "DELETE FROM watermarks WHERE collection_key IN (SELECT key FROM collections WHERE id = ANY(\(ids)))",
                    on: connection, logger: logger)
                report.lists = try await PostgresRows.all(
                    "DELETE FROM collections WHERE id = ANY(\(ids)) RETURNING id", on: connection, logger: logger
                ).count
                report.items = try await Self.deleteUnreferencedItems(connection, logger: logger)
                return report
            }
        }
    }

    /// Removes the items no page lists and returns how many.
    @discardableResult
    public func collectUnreferencedItems() async throws -> Int {
        try await mappingErrors {
            try await client.withTransactionStreaming { connection in
                try await Self.deleteUnreferencedItems(connection, logger: logger)
            }
        }
    }

    private static func deleteUnreferencedItems(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await PostgresRows.all(
            "DELETE FROM items WHERE NOT EXISTS (SELECT 1 FROM page_items WHERE item_id = items.id) RETURNING id",
            on: connection, logger: logger
        ).count
    }

    /// Gives the space of removed rows back: `VACUUM` of our tables only, never the database's others.
    public func vacuum() async throws {
        try await mappingErrors {
            for table in Self.tables {
                // However long it takes: VACUUM of a large table is not a stuck operation.
                _ = try await client.withConnectionStreaming { connection in
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "VACUUM \(location.quotedSchema).\(table)"), logger: logger)
                }
            }
        }
    }
}

extension PostgresCache: CacheStorage {}
