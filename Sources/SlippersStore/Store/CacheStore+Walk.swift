import Foundation
import GRDB
import Slippers

extension CacheStore {
    /// The tokens of the pages of a collection's current generation: where a walk through the list has been.
    ///
    /// A sync that resumes a list starts from them, so that a list that cycles
    /// is recognised across runs, not only within one.
    ///
    /// - returns: An empty trail when the collection is not cached.
    /// - throws: A `DatabaseError`.
    func walkTrail(in key: String) throws -> WalkTrail {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, generation FROM collections WHERE key = ?", arguments: [key])
            else { return WalkTrail() }
            var trail = WalkTrail()
            let tokens = try String?.fetchCursor(
                db, sql: "SELECT token FROM pages WHERE collection_id = ? AND generation = ?",
                arguments: [row[0] as Int64, row[1] as Int])
            while let token = try tokens.next() {
                if let token { trail.tokens.insert(PageToken(rawValue: token)) }
            }
            return trail
        }
    }

    /// How many of `keys` no page before `index` in the collection's current generation lists:
    /// what a page at `index` brings that the list has not shown yet.
    ///
    /// Only earlier pages count, so pages that another process saved at the
    /// same or later positions (two syncs of one list) do not make a page look
    /// stale. The ids are looked up in the database, through the items' unique
    /// key and the index of page membership, so a walk's memory does not grow
    /// with the length of the list.
    ///
    /// - returns: The number of distinct keys not listed; all of them when the collection is not cached.
    /// - throws: A `DatabaseError`.
    func unlistedCount(of keys: Set<ItemKey>, before index: Int, in key: String) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, generation, item_type FROM collections WHERE key = ?", arguments: [key])
            else { return keys.count }
            let (id, generation, type): (Int64, Int, String) = (row[0], row[1], row[2])
            var listed = 0
            for chunk in Array(keys).chunked(by: 500) {
                let arguments = StatementArguments([type]) + StatementArguments(chunk) + [id, generation, index]
                listed +=
                    try Int.fetchOne(db, sql: Self.listedItemsCountSQL(keys: chunk.count), arguments: arguments) ?? 0
            }
            return keys.count - listed
        }
    }
}

extension CacheStore {
    /// How many of `keys` ids of one type stand on pages of a collection's generation before an index.
    ///
    /// The membership is reached from each item through `page_items_by_item`,
    /// then its page by primary key (`CROSS JOIN` fixes that order): a cost per
    /// id, whatever the number of pages. The other order would walk every
    /// earlier page for each id.
    static func listedItemsCountSQL(keys: Int) -> String {
        let marks = Array(repeating: "?", count: keys).joined(separator: ", ")
        return """
            SELECT count(*) FROM items i WHERE i.type = ? AND i.key IN (\(marks)) AND EXISTS (
                SELECT 1 FROM page_items pi CROSS JOIN pages p ON p.id = pi.page_id
                WHERE pi.item_id = i.id AND p.collection_id = ? AND p.generation = ? AND p.idx < ?)
            """
    }
}

/// Where a walk through a list has been: the tokens of the pages it fetched.
struct WalkTrail: Sendable, Equatable {
    /// The tokens of the pages fetched; a next token among them means the list cycles.
    var tokens: Set<PageToken> = []
}

extension Array {
    /// The elements in consecutive slices of at most `size`.
    fileprivate func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
