import Foundation
import GRDB
import SlippersStorage

extension SQLiteCache {
    /// The watermark of a list synced incrementally, or `nil` when it has none.
    ///
    /// - throws: A `DatabaseError`.
    public func watermark(of key: String) throws -> SyncWatermark? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT field, value, pending_since FROM watermarks WHERE collection_key = ?",
                arguments: [key]
            ).map { row in
                SyncWatermark(field: row["field"], value: row["value"], pendingSince: row["pending_since"])
            }
        }
    }

    /// Stores the watermark of a list synced incrementally; `nil` removes it.
    ///
    /// - throws: A `DatabaseError`.
    public func saveWatermark(_ watermark: SyncWatermark?, of key: String) throws {
        try write { db in
            guard let watermark else {
                try db.execute(sql: "DELETE FROM watermarks WHERE collection_key = ?", arguments: [key])
                return
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO watermarks (collection_key, field, value, pending_since, updated_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [key, watermark.field, watermark.value, watermark.pendingSince, Date().storedValue])
        }
    }
}
