import Foundation
import GRDB
import Logging
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// Removes the lists not written since `date`, then the items no page references.
    ///
    /// A list is evicted whole (its pages go with it), so a list that
    /// remains never has a gap and resumes where it stopped.
    ///
    /// - throws: A `DatabaseError`.
    @discardableResult
    public func evict(olderThan date: Date) throws -> EvictionReport {
        try logging(eviction: "older than \(date.ISO8601Format())") { try evictLists(olderThan: date) }
    }

    private func evictLists(olderThan date: Date) throws -> EvictionReport {
        try write { db in
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT c.id FROM collections c LEFT JOIN pages p ON p.collection_id = c.id
                    GROUP BY c.id HAVING coalesce(max(p.fetched_at), c.created_at) < ?
                    """,
                arguments: [date.storedValue])
            return try Self.deleteLists(ids, in: db)
        }
    }

    /// Removes one list and its pages, then the items no page references.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a `DatabaseError`.
    @discardableResult
    public func evict(list key: String) throws -> EvictionReport {
        try logging(eviction: "list \(key.shortenedForErrors)") { try evictList(key) }
    }

    private func evictList(_ key: String) throws -> EvictionReport {
        try write { db in
            try Self.deleteLists([ListRow.id(forKey: key, in: db)], in: db)
        }
    }

    /// Removes the least recently written lists until the items' JSON takes at most `bytes`.
    ///
    /// - throws: A `DatabaseError`.
    @discardableResult
    public func evict(toFit bytes: Int64) throws -> EvictionReport {
        try logging(eviction: "to fit \(bytes) bytes") { try evictLists(toFit: bytes) }
    }

    private func evictLists(toFit bytes: Int64) throws -> EvictionReport {
        try write { db in
            try Self.deleteLists(untilItemsFit: bytes, in: db) {
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT c.id FROM collections c LEFT JOIN pages p ON p.collection_id = c.id
                        GROUP BY c.id ORDER BY coalesce(max(p.fetched_at), c.created_at)
                        """)
            }
        }
    }

    /// Removes the items no page lists, then the lists `candidates` gives, in its order,
    /// until the items' JSON takes at most `bytes`; nothing when it already does (and then
    /// `candidates` is not asked).
    static func deleteLists(
        untilItemsFit bytes: Int64, in db: Database, candidates: () throws -> [Int64]
    ) throws -> EvictionReport {
        guard try itemBytes(in: db) > bytes else { return EvictionReport() }
        var report = EvictionReport(items: try deleteUnreferencedItems(in: db))
        var total = try itemBytes(in: db)
        for id in try candidates() where total > bytes {
            report += try deleteLists([id], in: db)
            total = try itemBytes(in: db)
        }
        return report
    }

    /// The bytes of every cached item's JSON.
    static func itemBytes(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(sum(length(json)), 0) FROM items") ?? 0
    }

    /// Removes the items that no cached page references.
    ///
    /// - returns: The number of items removed.
    /// - throws: A `DatabaseError`.
    @discardableResult
    public func collectUnreferencedItems() throws -> Int {
        let removed = try write { db in try Self.deleteUnreferencedItems(in: db) }
        logger.info("collected unreferenced items", metadata: ["items": "\(removed)"])
        return removed
    }

    /// Rebuilds the file to give the space of removed rows back to the file system.
    ///
    /// - throws: A `DatabaseError`.
    public func vacuum() throws {
        try withWriter { writer in
            try writer.vacuum()
            try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        }
    }

    /// Runs an eviction and logs what it removed at `info`.
    private func logging(eviction reason: String, _ evict: () throws -> EvictionReport) throws -> EvictionReport {
        let report = try evict()
        logger.info(
            "evicted",
            metadata: [
                "reason": "\(reason)", "lists": "\(report.lists)", "pages": "\(report.pages)",
                "items": "\(report.items)",
            ])
        return report
    }

    static func deleteLists(_ ids: [Int64], in db: Database) throws -> EvictionReport {
        var report = EvictionReport()
        for id in ids {
            report.pages +=
                try Int.fetchOne(db, sql: "SELECT count(*) FROM pages WHERE collection_id = ?", arguments: [id]) ?? 0
            // A list removed forgets its watermark: an incremental sync of it walks it whole again.
            try db.execute(
                sql: "DELETE FROM watermarks WHERE collection_key = (SELECT key FROM collections WHERE id = ?)",
                arguments: [id])
            try db.execute(sql: "DELETE FROM collections WHERE id = ?", arguments: [id])
            report.lists += db.changesCount
        }
        report.items = try deleteUnreferencedItems(in: db)
        return report
    }

    static func deleteUnreferencedItems(in db: Database) throws -> Int {
        try db.execute(
            sql: """
                DELETE FROM items WHERE NOT EXISTS (SELECT 1 FROM page_items WHERE item_id = items.id)
                    AND NOT EXISTS (SELECT 1 FROM outbox WHERE item_id = items.id)
                """)
        return db.changesCount
    }
}
