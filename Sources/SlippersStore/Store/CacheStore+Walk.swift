import Foundation
import GRDB
import Slippers

extension CacheStore {
    /// What the pages of a collection's current generation have already brought: their tokens and item ids.
    ///
    /// A sync that resumes a list starts from it, so that a list that cycles or
    /// stops bringing new items is recognised across runs, not only within one.
    ///
    /// - returns: An empty trail when the collection is not cached.
    /// - throws: A `DatabaseError`.
    func walkTrail(in key: String) throws -> WalkTrail {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, generation FROM collections WHERE key = ?", arguments: [key])
            else { return WalkTrail() }
            let id: Int64 = row[0]
            let generation: Int = row[1]
            var trail = WalkTrail()
            let tokens = try String?.fetchCursor(
                db, sql: "SELECT token FROM pages WHERE collection_id = ? AND generation = ?",
                arguments: [id, generation])
            while let token = try tokens.next() {
                if let token { trail.tokens.insert(PageToken(rawValue: token)) }
            }
            let keys = try ItemKey.fetchCursor(
                db,
                sql: """
                    SELECT i.key FROM pages p JOIN page_items pi ON pi.page_id = p.id JOIN items i ON i.id = pi.item_id
                    WHERE p.collection_id = ? AND p.generation = ?
                    """,
                arguments: [id, generation])
            while let key = try keys.next() { trail.itemHashes.insert(key.hashValue) }
            return trail
        }
    }
}

/// The tokens and item ids a walk through a list has met so far.
///
/// Ids are kept as their hash values: 8 bytes each whatever the id, so that a
/// sync's memory stays nearly flat in the length of the list. Two ids whose
/// hashes collide would only make a page look a little less new.
struct WalkTrail: Sendable, Equatable {
    /// The tokens of the pages fetched; a next token among them means the list cycles.
    var tokens: Set<PageToken> = []
    /// The hash values of the ids of the items fetched.
    var itemHashes: Set<Int> = []

    /// Records a page's ids; returns how many of them the walk had not met before.
    mutating func recordItems(_ keys: some Sequence<ItemKey>) -> Int {
        var new = 0
        for key in keys where itemHashes.insert(key.hashValue).inserted { new += 1 }
        return new
    }
}
