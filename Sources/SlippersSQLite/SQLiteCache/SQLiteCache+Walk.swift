import Foundation
import GRDB
import Slippers

extension SQLiteCache {
    /// The tokens of the pages before `index` in generation `generation` of a list: where a walk
    /// through the list has been.
    ///
    /// A sync that resumes a list starts from them, so that a list that cycles
    /// is recognised across runs, not only within one. Only the pages the
    /// resuming walk read the list's head at count: pages another
    /// process saved since, at that position or later or in a new generation,
    /// are where that process went, not where this walk has been.
    ///
    /// - returns: No token when the list is not cached.
    /// - throws: A `DatabaseError`.
    public func walkedTokens(in key: String, before index: Int, generation: Int) throws -> Set<PageToken> {
        try read { db in
            guard let list = try ListRow.fetchOptional(key: key, in: db) else { return [] }
            var walked: Set<PageToken> = []
            let tokens = try String?.fetchCursor(
                db, sql: "SELECT token FROM pages WHERE collection_id = ? AND generation = ? AND idx < ?",
                arguments: [list.id, generation, index])
            while let token = try tokens.next() {
                if let token { walked.insert(PageToken(rawValue: token)) }
            }
            return walked
        }
    }

    /// How many of `keys` no page before `index` in the list's current generation lists:
    /// what a page at `index` brings that the list has not shown yet.
    ///
    /// Only earlier pages count, so pages that another process saved at the
    /// same or later positions (two syncs of one list) do not make a page look
    /// as if it brought nothing new. The ids are looked up in the database, by the items' unique key
    /// and then as ``countListed(_:before:in:db:)`` counts them for a save, so
    /// a walk's memory does not grow with the length of the list.
    ///
    /// - returns: The number of distinct keys not listed; all of them when the list is not cached.
    /// - throws: A `DatabaseError`.
    public func unlistedCount(of keys: Set<ItemKey>, before index: Int, in key: String) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try read { db in
            guard let list = try ListRow.fetchOptional(key: key, in: db) else { return keys.count }
            return try Self.unlistedCount(of: Array(keys), before: index, in: list, db: db)
        }
    }

    /// How many of `keys`, each once, no page before `index` in the list's current generation lists.
    static func unlistedCount(of keys: [ItemKey], before index: Int, in list: ListRow, db: Database)
        throws -> Int
    {
        let ids = try itemIDs(of: keys, type: list.itemType, in: db)
        return keys.count - (try countListed(ids, before: index, in: list, db: db))
    }
}
