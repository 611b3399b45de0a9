import Foundation
import GRDB

extension SQLiteCache {
    /// The views of the cached item types, by name: what each is called and the SQL it runs (see ``ItemView``).
    ///
    /// For example:
    ///
    /// ```swift
    /// for view in try cache.itemViews() { print(view.name, view.columns.map(\.name)) }
    /// ```
    ///
    /// - throws: A `DatabaseError`.
    public func itemViews() throws -> [ItemView] {
        try read { db in try ItemViews.definitions(db) }
    }

    /// Records the members of every cached item again and makes the views agree with them.
    ///
    /// Saving a page keeps the views of its items current; items written one by one (a local
    /// edit, an insert in the outbox) add their new members at the next page of their type, or here.
    ///
    /// - throws: `SQLiteCacheError.readOnly(path:)` on a read-only store, or a `DatabaseError`.
    public func rebuildItemViews() throws {
        try write { db in try ItemViews.rescan(db) }
    }
}
