import Foundation
import GRDB

/// What the cache learnt about the servers writes go to: which origins enforce preconditions.
extension SQLiteCache {
    /// Records that `origin` (`https://api.example.com`) enforces preconditions: it answered a write
    /// `412 Precondition Failed` or `428 Precondition Required`. Its writes are then sent with
    /// `If-Match` alone, without reading the item first.
    ///
    /// - throws: A `DatabaseError`.
    public func noteEnforcesPreconditions(_ origin: String) throws {
        try write { db in
            try db.execute(
                sql: "INSERT INTO settings (name, value) VALUES (?, 'yes') ON CONFLICT (name) DO NOTHING",
                arguments: [Self.preconditionsSetting(origin)])
        }
    }

    /// Whether `origin` was seen enforcing preconditions (see ``noteEnforcesPreconditions(_:)``).
    ///
    /// - throws: A `DatabaseError`.
    public func enforcesPreconditions(_ origin: String) throws -> Bool {
        try read { db in
            guard try db.tableExists("settings") else { return false }
            return try String.fetchOne(
                db, sql: "SELECT value FROM settings WHERE name = ?", arguments: [Self.preconditionsSetting(origin)])
                != nil
        }
    }

    private static func preconditionsSetting(_ origin: String) -> String { "enforces-preconditions " + origin }
}
