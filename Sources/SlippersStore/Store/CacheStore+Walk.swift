import Foundation
import GRDB
import Slippers

extension CacheStore {
    /// The tokens of the pages of a collection's current generation: where a walk through the list has been.
    ///
    /// A sync that resumes a list starts from them, so that a list that cycles
    /// is recognised across runs, not only within one.
    ///
    /// - returns: No token when the collection is not cached.
    /// - throws: A `DatabaseError`.
    func walkedTokens(in key: String) throws -> Set<PageToken> {
        try read { db in
            guard let collection = try CollectionRow.fetchOptional(key: key, in: db) else { return [] }
            var walked: Set<PageToken> = []
            let tokens = try String?.fetchCursor(
                db, sql: "SELECT token FROM pages WHERE collection_id = ? AND generation = ?",
                arguments: [collection.id, collection.generation])
            while let token = try tokens.next() {
                if let token { walked.insert(PageToken(rawValue: token)) }
            }
            return walked
        }
    }

    /// How many of `keys` no page before `index` in the collection's current generation lists:
    /// what a page at `index` brings that the list has not shown yet.
    ///
    /// Only earlier pages count, so pages that another process saved at the
    /// same or later positions (two syncs of one list) do not make a page look
    /// stale. The ids are looked up in the database, by the items' unique key
    /// and then as ``countListed(_:before:in:db:)`` counts them for a save, so
    /// a walk's memory does not grow with the length of the list.
    ///
    /// - returns: The number of distinct keys not listed; all of them when the collection is not cached.
    /// - throws: A `DatabaseError`.
    func unlistedCount(of keys: Set<ItemKey>, before index: Int, in key: String) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try read { db in
            guard let collection = try CollectionRow.fetchOptional(key: key, in: db) else { return keys.count }
            let ids = try Self.itemIDs(of: Array(keys), type: collection.itemType, in: db)
            return keys.count - (try Self.countListed(ids, before: index, in: collection, db: db))
        }
    }
}
