import Foundation
import GRDB
import Slippers
import SlippersStorage

extension SQLiteCache: FeedGapStorage {
    /// The gaps of a list's current generation, in the list's order.
    static let gapsSQL = """
        SELECT g.id, p.idx, g.after_position, g.token, g.items, g.created_at, (
            SELECT i.key FROM pages p2 CROSS JOIN page_items pi ON pi.page_id = p2.id
            CROSS JOIN items i ON i.id = pi.item_id
            WHERE p2.collection_id = c.id AND p2.generation = c.generation
            AND (p2.idx > p.idx OR (p2.idx = p.idx AND pi.position > g.after_position))
            ORDER BY p2.idx, pi.position LIMIT 1)
        FROM collections c CROSS JOIN pages p ON p.collection_id = c.id AND p.generation = c.generation
        CROSS JOIN gaps g ON g.page_id = p.id
        WHERE c.key = ? ORDER BY p.idx, g.after_position
        """

    /// The gaps of the list's current generation, in the list's order; none for a list not cached.
    public func gaps(in key: String) throws -> [ListGap] {
        try readOneStatement { db in
            try Row.fetchAll(db.cachedStatement(sql: Self.gapsSQL), arguments: [key]).map { row in
                ListGap(
                    id: row[0], pageIndex: row[1], afterPosition: row[2], token: PageToken(row[3] as String),
                    itemCount: row[4], createdAt: Date(timeIntervalSince1970: row[5]), keyBelow: row[6])
            }
        }
    }

    /// Merges the first page of a feed, as its server now sends it, at the top of the cached list in
    /// one transaction; records a gap below the new items when none of the page's items was listed.
    ///
    /// Two runs join only on an item both hold: a page that lists an item the cache lists continues
    /// the cached run, and its items above that item go at the top. A page that lists none is a new
    /// run: its items go at the top and a gap after them records `continuation`, which fills it
    /// (``fillGap(_:with:in:now:)``). Nothing below is removed.
    ///
    /// - returns: The merge, and whether a gap was recorded.
    /// - throws: `CacheError.listNotFound(key:)` when the list has no cached first page, or a cache error.
    @discardableResult
    public func mergeFeedHead(
        _ page: Page<RawItem>, in list: ListDescriptor, now: Date = Date()
    ) throws -> (merge: HeadMerge, gapRecorded: Bool) {
        try write { db in
            let (merge, firstPage, overlaps) = try Self.mergeHead(page.items, total: nil, in: list, now: now, db)
            guard !overlaps, merge.added > 0, let continuation = page.nextToken else { return (merge, false) }
            try Self.recordGap(onPage: firstPage, after: merge.added - 1, token: continuation, now: now, db)
            return (merge, true)
        }
    }

    /// Puts the items of `page`, fetched with the gap's token, where the gap is, in one transaction.
    ///
    /// The page's items up to the first one the list holds are inserted after the item above the
    /// gap; that item, or a page with no next token, closes the gap. Otherwise the gap moves below
    /// the inserted items and continues with the page's next token.
    ///
    /// - throws: `CacheError.listNotFound(key:)` when the gap is gone (filled or replaced meanwhile).
    @discardableResult
    public func fillGap(
        _ gap: ListGap, with page: Page<RawItem>, in list: ListDescriptor, now: Date = Date()
    ) throws -> GapFill {
        try write { db in
            let (row, pageID, isListed) = try Self.filling(gap, with: page.items, in: list, db)
            let meeting = page.items.firstIndex(where: isListed)
            let inserted = try Self.listFresh(
                page.items[..<(meeting ?? page.items.count)], of: row, onPage: pageID, after: gap.afterPosition,
                now: now, db)
            let isClosed = meeting != nil || page.nextToken == nil || page.items.isEmpty
            if isClosed {
                try Self.deleteGap(gap.id, db)
            } else {
                try db.execute(
                    sql: "UPDATE gaps SET after_position = ?, token = ? WHERE id = ?",
                    arguments: [gap.afterPosition + inserted, page.nextToken?.rawValue, gap.id])
            }
            return GapFill(inserted: inserted, isClosed: isClosed)
        }
    }

    /// The list's row, the page a gap sits on, and whether each of `items` is listed, for a fill of the gap.
    static func filling(
        _ gap: ListGap, with items: [RawItem], in list: ListDescriptor, _ db: Database
    ) throws -> (row: ListRow, pageID: Int64, isListed: (RawItem) -> Bool) {
        let row = try ListRow.fetch(key: list.key, in: db)
        guard let pageID = try Int64.fetchOne(db, sql: "SELECT page_id FROM gaps WHERE id = ?", arguments: [gap.id])
        else { throw CacheError.listNotFound(key: list.key) }
        let before = try Self.storedItems(of: items.map(\.key), type: row.itemType, in: db)
        let listed = try Self.listedIDs(before.values.map(\.id), in: row, db)
        return (row, pageID, { item in before[item.key].map { listed.contains($0.id) } ?? false })
    }

    /// Stores `items` and lists those the outbox has not deleted on a page after the item at
    /// `position`, each once; returns how many it listed.
    static func listFresh(
        _ items: ArraySlice<RawItem>, of row: ListRow, onPage pageID: Int64, after position: Int, now: Date,
        _ db: Database
    ) throws -> Int {
        var deleted: Set<Int64> = []
        let ids = try Self.upsertItems(Array(items), type: row.itemType, now: now, in: db, deleted: &deleted)
        var seen: Set<Int64> = []
        let inserted = ids.filter { !deleted.contains($0) && seen.insert($0).inserted }
        try Self.insertItems(inserted, onPage: pageID, after: position, in: db)
        if !inserted.isEmpty { ItemViews.keepCurrent(afterWritingPage: pageID, now: now, db) }
        return inserted.count
    }

    /// The row id of the page at `index` of the list's current generation.
    static func currentPageID(at index: Int, of row: ListRow, _ db: Database) throws -> Int64 {
        guard
            let id = try Int64.fetchOne(
                db.cachedStatement(
                    sql: "SELECT id FROM pages WHERE collection_id = ? AND idx = ? AND generation = ?"),
                arguments: [row.id, index, row.generation])
        else { throw CacheError.listNotFound(key: row.key) }
        return id
    }
}
