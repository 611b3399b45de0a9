import Foundation
import PostgresNIO
import SlippersStorage

extension PostgresCache {
    /// The watermark of a list synced incrementally, or `nil` when it has none.
    ///
    /// - throws: A ``PostgresCacheError``.
    public func watermark(of key: String) async throws -> SyncWatermark? {
        try await mappingErrors {
            let rows = try await client.rows(
                "SELECT field, value, pending_since FROM watermarks WHERE collection_key = \(key)")
            guard let row = rows.first else { return nil }
            return SyncWatermark(
                field: try row["field"].decode(String.self), value: try row["value"].decode(String?.self),
                pendingSince: try row["pending_since"].decode(String?.self))
        }
    }

    /// Stores the watermark of a list synced incrementally; `nil` removes it.
    ///
    /// - throws: A ``PostgresCacheError``.
    public func saveWatermark(_ watermark: SyncWatermark?, of key: String) async throws {
        try await mappingErrors {
            guard let watermark else {
                _ = try await client.rows("DELETE FROM watermarks WHERE collection_key = \(key)")
                return
            }
            let now = Date().timeIntervalSince1970
            _ = try await client.rows(
                """
                INSERT INTO watermarks (collection_key, field, value, pending_since, updated_at)
                VALUES (\(key), \(watermark.field), \(watermark.value), \(watermark.pendingSince), \(now))
                ON CONFLICT (collection_key) DO UPDATE SET field = excluded.field, value = excluded.value,
                    pending_since = excluded.pending_since, updated_at = excluded.updated_at
                """)
        }
    }
}
