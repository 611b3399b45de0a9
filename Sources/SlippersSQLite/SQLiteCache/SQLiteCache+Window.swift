import Foundation
import GRDB
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// The head of the list with `key`, or `nil` when it is not cached.
    ///
    /// Two keyed lookups, whatever the number of pages: the list's row,
    /// and the last page of its current generation.
    ///
    /// - throws: A `DatabaseError`.
    func listHead(_ key: String) throws -> ListHead? {
        try read { db in try Self.listHead(key, in: db) }
    }

    /// The head of a list and its cached pages at `indices`, read in one transaction.
    ///
    /// Pages are read one by one through their key, so the cost grows with
    /// the number of pages asked for, never with the size of the list.
    /// The run stops at the first index that is not cached.
    ///
    /// - returns: The window, or `nil` when the list is not cached.
    /// - throws: A `DatabaseError`.
    func window(_ key: String, pages indices: Range<Int>) throws -> CachedWindow? {
        try read { db in
            guard let head = try Self.listHead(key, in: db) else { return nil }
            var pages: [StoredPage] = []
            pages.reserveCapacity(indices.count)
            for index in indices {
                guard let page = try Self.storedPage(at: index, in: key, db) else { break }
                pages.append(page)
            }
            return CachedWindow(head: head, pages: pages)
        }
    }

    // MARK: - SQL

    /// The queries that read a window: the head, then each page's row and items.
    static var windowReadQueries: [String] { [listHeadSQL, gapsSQL] + pageReadQueries }

    /// A list's row by key, with the index of the last page of its current generation.
    ///
    /// `max(idx)` over `pages_by_generation` (list, generation, idx) is
    /// one step down the index; the pages of the current generation form a
    /// prefix, so one past it is their number. The last page of any generation
    /// is one step down the (list, idx) key.
    static let listHeadSQL = """
        SELECT c.key, c.resume_token, c.end_reached, c.total, c.refreshed_at, c.invalidated_at, c.generation,
            (SELECT max(p.idx) FROM pages p WHERE p.collection_id = c.id AND p.generation = c.generation)
                AS last_current_index,
            (SELECT max(p.idx) FROM pages p WHERE p.collection_id = c.id) AS last_index
        FROM collections c WHERE c.key = ?
        """

    static func listHead(_ key: String, in db: Database) throws -> ListHead? {
        try Row.fetchOne(db.cachedStatement(sql: listHeadSQL), arguments: [key]).map { row in
            listHead(row, currentPageCount: (row["last_current_index"] as Int?).map { $0 + 1 } ?? 0)
        }
    }

    /// The head in a row of the `lists` table with a `last_index` column (the last cached page's index).
    static func listHead(_ row: Row, currentPageCount: Int) -> ListHead {
        ListHead(
            key: row["key"],
            resumeToken: (row["resume_token"] as String?).map(PageToken.init(rawValue:)),
            endReached: row["end_reached"],
            total: row["total"],
            refreshedAt: Date(storedValue: row["refreshed_at"] as Double?),
            invalidatedAt: Date(storedValue: row["invalidated_at"] as Double?),
            generation: row["generation"],
            currentPageCount: currentPageCount,
            cachedPageCount: (row["last_index"] as Int?).map { $0 + 1 } ?? 0)
    }
}
