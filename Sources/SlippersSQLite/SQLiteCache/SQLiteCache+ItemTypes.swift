import Foundation
import GRDB
import Slippers

extension SQLiteCache {
    /// The item types a name may stand for, sorted: what a person types to find an item.
    ///
    /// A list's key stands for its item type, and an item type for
    /// itself. A short name stands for the types filed under it for each
    /// origin, as `slippers sync` names them: `posts` for
    /// `posts@https://api.example.com`. Only the types of cached lists count.
    ///
    /// ```swift
    /// let types = try cache.itemTypes(named: "posts")   // ["posts@https://api.example.com"]
    /// ```
    ///
    /// - returns: One type, several when a short name is filed under several origins, or none.
    /// - throws: A `DatabaseError`.
    public func itemTypes(named name: String) throws -> [String] {
        let name = try listKey(typed: name)
        return try read { db in
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

    /// The key of the cached list a person means by `typed`: `typed` itself when a
    /// list has that key, else the key with its credential query values masked
    /// (`?access_token=***`, as keys keep them) when a list has that one.
    ///
    /// So a list synced from `…?access_token=abc` is found by the URL as typed.
    ///
    /// - returns: `typed` when neither is cached.
    /// - throws: A `DatabaseError`.
    public func listKey(typed: String) throws -> String {
        let masked = CredentialQuery.masking(typed)
        guard masked != typed else { return typed }
        return try read { db in
            if try ListRow.optionalID(forKey: typed, in: db) != nil { return typed }
            return try ListRow.optionalID(forKey: masked, in: db) != nil ? masked : typed
        }
    }
}
