import Foundation
import GRDB
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// The item of `type` with `key`, or `nil` when it is not cached.
    ///
    /// - throws: A `DatabaseError`.
    public func item(type: String, key: ItemKey) throws -> StoredItem? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT type, key, json, updated_at FROM items WHERE type = ? AND key = ?",
                arguments: [type, key]
            ).map(Self.storedItem)
        }
    }

    /// Every cached item with `key`, whatever its type (for tools that do not know the type).
    ///
    /// - throws: A `DatabaseError`.
    public func items(withKey key: ItemKey) throws -> [StoredItem] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT type, key, json, updated_at FROM items WHERE key = ? ORDER BY type",
                arguments: [key]
            ).map(Self.storedItem)
        }
    }

    /// Saves one item (an edit made locally, or an item fetched on its own).
    ///
    /// Every cached page that lists the item sees the new JSON: items are stored once.
    ///
    /// - throws: A `DatabaseError`.
    public func saveItem(_ item: RawItem, type: String, now: Date = Date()) throws {
        // An edit of a cached item (the common case) is one single-row UPDATE, atomic on its own:
        // it runs without a BEGIN and a COMMIT around it. A new or unchanged item takes a transaction.
        let updated = try writeWithoutTransaction { db in
            try Self.updateItemIfChanged(item, type: type, now: now, in: db)
        }
        guard !updated else { return }
        try write { db in try Self.upsertItem(item, type: type, now: now, in: db) }
    }

    private static func storedItem(_ row: Row) -> StoredItem {
        StoredItem(
            type: row["type"],
            item: RawItem(key: row["key"], json: row["json"]),
            updatedAt: Date(storedValue: row["updated_at"]))
    }
}
