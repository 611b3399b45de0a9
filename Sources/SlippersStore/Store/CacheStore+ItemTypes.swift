import Foundation
import GRDB

extension CacheStore {
    /// The item types a name may stand for, sorted: what a person types to find an item.
    ///
    /// A collection's key stands for its item type, and an item type for
    /// itself. A short name stands for the types filed under it for each
    /// origin, as `slippers sync` names them: `posts` for
    /// `posts@https://api.example.com`. Only the types of cached collections count.
    ///
    /// ```swift
    /// let types = try store.itemTypes(named: "posts")   // ["posts@https://api.example.com"]
    /// ```
    ///
    /// - returns: One type, several when a short name is filed under several origins, or none.
    /// - throws: A `DatabaseError`.
    public func itemTypes(named name: String) throws -> [String] {
        try read { db in
            if let type = try String.fetchOne(
                db, sql: "SELECT item_type FROM collections WHERE key = ?", arguments: [name])
            {
                return [type]
            }
            let types = try String.fetchAll(db, sql: "SELECT DISTINCT item_type FROM collections ORDER BY item_type")
            if types.contains(name) { return [name] }
            return types.filter { $0.hasPrefix(name + "@") }
        }
    }
}
