import Foundation
import GRDB
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// The list with `key` and its statistics, or `nil` when it is not cached.
    ///
    /// - throws: A `DatabaseError`.
    public func list(_ key: String) throws -> ListInfo? {
        try read { db in
            try ListRow.optionalID(forKey: key, in: db).map { try Self.listInfo(id: $0, in: db) }
        }
    }

    /// Every list with its statistics, ordered by key.
    ///
    /// - throws: A `DatabaseError`.
    public func lists() throws -> [ListInfo] {
        try read { db in
            try Row.fetchAll(db, sql: Self.listInfoSQL + " GROUP BY c.id ORDER BY c.key").map(Self.listInfo)
        }
    }

    /// Invalidates a list: every one of its pages is unverified, for this process and every other that opens the file.
    ///
    /// Its pages stay readable; each is revalidated when it is next used
    /// (`PageInfo.isUnverified` until then). One write, however many pages.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a `DatabaseError`.
    public func invalidate(_ key: String, now: Date = Date()) throws {
        try write { db in
            let id = try ListRow.id(forKey: key, in: db)
            try db.execute(
                sql: "UPDATE collections SET invalidated_at = ?1, unverified_before = ?1 WHERE id = ?2",
                arguments: [now.storedValue, id])
        }
    }

    /// Invalidates every list: every page is unverified.
    ///
    /// - returns: The number of lists marked.
    /// - throws: A `DatabaseError`.
    @discardableResult
    public func invalidateAll(now: Date = Date()) throws -> Int {
        try write { db in
            try db.execute(
                sql: "UPDATE collections SET invalidated_at = ?1, unverified_before = ?1", arguments: [now.storedValue])
            return db.changesCount
        }
    }

    static let listInfoSQL = """
        SELECT c.*, count(p.id) AS page_count,
            coalesce(sum(p.generation < c.generation), 0) AS superseded_page_count,
            coalesce(sum(p.verified_at < c.unverified_before), 0) AS unverified_page_count,
            (SELECT count(DISTINCT pi.item_id) FROM pages p2 JOIN page_items pi ON pi.page_id = p2.id
                WHERE p2.collection_id = c.id) AS item_count,
            (SELECT count(*) FROM gaps g JOIN pages p3 ON p3.id = g.page_id
                WHERE p3.collection_id = c.id AND p3.generation = c.generation) AS gap_count,
            max(p.fetched_at) AS last_fetched_at, max(p.idx) AS last_index
        FROM collections c LEFT JOIN pages p ON p.collection_id = c.id
        """

    static let listInfoByIDSQL = listInfoSQL + " WHERE c.id = ? GROUP BY c.id"

    static func listInfo(id: Int64, in db: Database) throws -> ListInfo {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: listInfoByIDSQL), arguments: [id])
        else { throw CacheError.listNotFound(key: "#\(id)") }
        return listInfo(row)
    }

    static func listInfo(_ row: Row) -> ListInfo {
        let pageCount: Int = row["page_count"]
        let supersededPageCount: Int = row["superseded_page_count"]
        let head = listHead(row, currentPageCount: pageCount - supersededPageCount)
        return ListInfo(
            head: head,
            itemType: row["item_type"],
            style: row["style"],
            createdAt: Date(storedValue: row["created_at"]),
            pageCount: pageCount,
            supersededPageCount: supersededPageCount,
            itemCount: row["item_count"],
            lastFetchedAt: Date(storedValue: row["last_fetched_at"] as Double?),
            unverifiedPageCount: row["unverified_page_count"], gapCount: row["gap_count"])
    }
}

extension SQLiteCache: Refreshable {
    /// Invalidates every list: the `Refreshable` face of the whole cache.
    public func refresh() throws {
        try invalidateAll()
    }
}
