import Foundation
import GRDB
import SlippersStorage

/// A `lists` row, as the cache reads and writes it inside a transaction.
struct ListRow {
    var id: Int64
    var key: String
    var itemType: String
    var style: String?
    var resumeToken: String?
    var endReached: Bool
    var total: Int?
    var refreshedAt: Double?
    var invalidatedAt: Double?
    var generation: Int

    /// The list's row, created first when it does not exist.
    ///
    /// - throws: `CacheError.itemTypeMismatch(list:stored:requested:)` when
    ///   the list exists with another item type.
    static func fetchOrCreate(_ descriptor: ListDescriptor, now: Date, in db: Database) throws -> ListRow {
        // Looked up first: every page but a list's first finds its row without writing.
        var found = try fetchOptional(key: descriptor.key, in: db)
        if found == nil {
            try db.cachedStatement(
                sql: "INSERT INTO collections (key, item_type, style, created_at) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [descriptor.key, descriptor.itemType, descriptor.style, now.storedValue])
            found = try fetchOptional(key: descriptor.key, in: db)
        }
        guard let found else { throw CacheError.listNotFound(key: descriptor.key) }
        return try checked(found, for: descriptor)
    }

    /// `found`, the row of the list `descriptor` names, as ``fetchOrCreate(_:now:in:)`` returns it:
    /// of the descriptor's item type, with its style when it has one.
    ///
    /// - throws: `CacheError.itemTypeMismatch(list:stored:requested:)`.
    static func checked(_ found: ListRow, for descriptor: ListDescriptor) throws -> ListRow {
        var row = found
        guard row.itemType == descriptor.itemType else {
            throw CacheError.itemTypeMismatch(
                list: descriptor.key, stored: row.itemType, requested: descriptor.itemType)
        }
        if let style = descriptor.style { row.style = style }
        return row
    }

    /// The row of the list with `key`.
    ///
    /// - throws: `CacheError.listNotFound(key:)`.
    static func fetch(key: String, in db: Database) throws -> ListRow {
        guard let row = try fetchOptional(key: key, in: db) else { throw CacheError.listNotFound(key: key) }
        return row
    }

    /// The row id of the list with `key`, or `nil`.
    static func optionalID(forKey key: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM collections WHERE key = ?"), arguments: [key])
    }

    /// The row id of the list with `key`.
    ///
    /// - throws: `CacheError.listNotFound(key:)`.
    static func id(forKey key: String, in db: Database) throws -> Int64 {
        guard let id = try optionalID(forKey: key, in: db) else { throw CacheError.listNotFound(key: key) }
        return id
    }

    /// Writes the mutable columns back.
    func update(in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE collections SET style = ?, resume_token = ?, end_reached = ?, total = ?,
                    refreshed_at = ?, invalidated_at = ?, generation = ?
                WHERE id = ?
                """
        ).execute(arguments: [style, resumeToken, endReached, total, refreshedAt, invalidatedAt, generation, id])
    }

    /// The row of the list with this key, or `nil`.
    static func fetchOptional(key: String, in db: Database) throws -> ListRow? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM collections WHERE key = ?"), arguments: [key]).map {
            row in
            ListRow(
                id: row["id"], key: row["key"], itemType: row["item_type"], style: row["style"],
                resumeToken: row["resume_token"], endReached: row["end_reached"], total: row["total"],
                refreshedAt: row["refreshed_at"], invalidatedAt: row["invalidated_at"],
                generation: row["generation"])
        }
    }
}
