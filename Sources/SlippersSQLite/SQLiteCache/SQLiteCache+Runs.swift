import Foundation
import GRDB
import Slippers
import SlippersStorage

/// What placing a run of a feed's items did: see ``SQLiteCache/placeRun(_:continuation:in:now:)``.
public struct RunPlacement: Hashable, Sendable {
    /// The run's items no page listed: put in the list where their ids place them.
    var inserted: Int
    /// Whether the run met the item listed above its place (or is the list's head).
    var metAbove: Bool
    /// Whether the run met the item listed below its place (or the list's end).
    var metBelow: Bool
}

/// Why a run of a feed's items could not be placed in its list.
public struct RunPlacementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The list.
    public var list: String
    /// The first id that has no order with the list's ids.
    public var key: ItemKey

    /// One line: which ids cannot be ordered, and what that means.
    public var description: String {
        "the ids of \(list) have no order (\"\(key)\" is not a number), so items fetched "
            + "around an item cannot be placed among the cached ones: the list opens at its head"
    }
}

/// A feed's runs: items fetched around an item join the list where their ids place them, with a
/// gap on each side they do not meet; a gap fills from below as well as from above.
extension SQLiteCache {
    /// A listed item of the current generation, in the list's order.
    private struct ListedItem {
        var pageID: Int64
        var place: Place
        var position: Int { place.position }
        var key: ItemKey
    }

    /// Puts a run of a newest-first list's items (a page fetched around an item, newest first) into
    /// the cached list where their ids place them, in one transaction.
    ///
    /// The run goes between the last listed item newer than its items and the first listed item
    /// older than them; its items already listed stay where they are. A side the run does not meet
    /// keeps (or gets) a gap: the gap above it is the one that was there, filled from the run
    /// above; the gap below it continues with `continuation` (the run's next page). A run below
    /// every cached item continues the list: the last page's continuation fills the gap above
    /// it, and `continuation` becomes the list's.
    ///
    /// - throws: ``RunPlacementError`` when the ids are not numbers (nothing is written);
    ///   `CacheError.listNotFound(key:)` when the list has no cached first page.
    @discardableResult
    public func placeRun(
        _ items: [RawItem], continuation: PageToken?, in list: ListDescriptor, now: Date = Date()
    ) throws -> RunPlacement {
        try write { db in
            let row = try ListRow.fetch(key: list.key, in: db)
            let firstPageID = try Self.currentPageID(at: 0, of: row, db)
            let listed = try Self.listedItems(of: row, db)
            guard let newest = items.first?.key, let oldest = items.last?.key else {
                return RunPlacement(inserted: 0, metAbove: false, metBelow: false)
            }
            for key in items.map(\.key) + listed.map(\.key) where key != newest && key.isNewer(than: newest) == nil {
                throw RunPlacementError(list: list.key, key: key)
            }
            // The slot: after the last listed item newer than the run's newest, before the first older than its oldest.
            let aboveIndex = listed.lastIndex { $0.key.isNewer(than: newest) == true || $0.key == newest }
            let belowIndex = listed.firstIndex { oldest.isNewer(than: $0.key) == true || $0.key == oldest }
            let runKeys = Set(items.map(\.key))
            let above = aboveIndex.map { listed[$0] }
            let below = belowIndex.map { listed[$0] }
            let metAbove = above.map { runKeys.contains($0.key) } ?? false
            let metBelow = below.map { runKeys.contains($0.key) } ?? (row.endReached)
            let listedKeys = Set(listed.map(\.key))
            let fresh = items.filter { !listedKeys.contains($0.key) }
            let gapsBetween = try Self.gapRows(of: row, db).filter { gap in
                gap.place >= (above?.place ?? Place(page: -1, position: -2))
                    && gap.place < (below?.place ?? Place(page: .max, position: .max))
            }
            // Where the run goes: right above the item below it, else after the list's last item.
            let (pageID, after): (Int64, Int)
            if let below {
                (pageID, after) = (below.pageID, below.position - 1)
            } else if let last = listed.last {
                (pageID, after) = (last.pageID, last.position)
            } else {
                (pageID, after) = (firstPageID, -1)
            }
            let inserted = try Self.listFresh(fresh[...], of: row, onPage: pageID, after: after, now: now, db)
            let runEnd = after + inserted
            if metAbove {
                for gap in gapsBetween { try Self.deleteGap(gap.id, db) }
            }
            if below == nil, !listed.isEmpty {
                // Below every cached item: the list's continuation fills the gap above the run, the run's continues it.
                let lastPage = try Self.lastCurrentPage(of: row, db)
                if !metAbove, let token = lastPage.nextToken {
                    try Self.recordGap(onPage: pageID, after: after, token: token, now: now, db)
                }
                try db.execute(
                    sql: "UPDATE pages SET next_token = ? WHERE id = ?",
                    arguments: [continuation?.rawValue, lastPage.id])
                try db.execute(
                    sql: "UPDATE collections SET resume_token = ?, end_reached = ? WHERE id = ?",
                    arguments: [continuation?.rawValue, continuation == nil, row.id])
            } else if !metBelow, inserted > 0, let continuation {
                try Self.recordGap(onPage: pageID, after: runEnd, token: continuation, now: now, db)
            }
            return RunPlacement(inserted: inserted, metAbove: metAbove || above == nil, metBelow: metBelow)
        }
    }

    /// Puts the items of `page`, fetched as the items just newer than the item below the gap
    /// (``ListGap/keyBelow``), where the gap is, in one transaction.
    ///
    /// The page's items older than the last one the list holds go right above the item below the
    /// gap, and the gap stays above them; the item the list holds, or an empty page (nothing is
    /// newer), closes the gap.
    ///
    /// - throws: `CacheError.listNotFound(key:)` when the gap is gone.
    @discardableResult
    public func fillGapFromBelow(
        _ gap: ListGap, with page: Page<RawItem>, in list: ListDescriptor, now: Date = Date()
    ) throws -> GapFill {
        try write { db in
            let (row, pageID, isListed) = try Self.filling(gap, with: page.items, in: list, db)
            let meeting = page.items.lastIndex(where: isListed)
            let inserted = try Self.listFresh(
                page.items[(meeting.map { $0 + 1 } ?? 0)...], of: row, onPage: pageID, after: gap.afterPosition,
                now: now, db)
            let isClosed = meeting != nil || page.items.isEmpty
            if isClosed { try Self.deleteGap(gap.id, db) }
            return GapFill(inserted: inserted, isClosed: isClosed)
        }
    }

    /// The index of the page of the list's current generation that lists the item, if one does.
    public func pageIndex(ofItem key: ItemKey, in listKey: String) throws -> Int? {
        try read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT p.idx FROM collections c CROSS JOIN items i ON i.type = c.item_type AND i.key = ?
                    CROSS JOIN page_items pi ON pi.item_id = i.id
                    CROSS JOIN pages p ON p.id = pi.page_id AND p.collection_id = c.id AND p.generation = c.generation
                    WHERE c.key = ? ORDER BY p.idx LIMIT 1
                    """,
                arguments: [key, listKey])
        }
    }

    // MARK: Inside a transaction

    /// The items of the list's current generation, in order.
    private static func listedItems(of row: ListRow, _ db: Database) throws -> [ListedItem] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT pi.page_id, p.idx, pi.position, i.key FROM pages p
                CROSS JOIN page_items pi ON pi.page_id = p.id CROSS JOIN items i ON i.id = pi.item_id
                WHERE p.collection_id = ? AND p.generation = ? ORDER BY p.idx, pi.position
                """,
            arguments: [row.id, row.generation]
        ).map { ListedItem(pageID: $0[0], place: Place(page: $0[1], position: $0[2]), key: $0[3]) }
    }

    private struct GapRow {
        var id: Int64
        var place: Place
    }

    private static func gapRows(of row: ListRow, _ db: Database) throws -> [GapRow] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT g.id, p.idx, g.after_position FROM pages p CROSS JOIN gaps g ON g.page_id = p.id
                WHERE p.collection_id = ? AND p.generation = ?
                """,
            arguments: [row.id, row.generation]
        ).map { GapRow(id: $0[0], place: Place(page: $0[1], position: $0[2])) }
    }

    /// A place in the list: a page's index, and a position on it.
    private struct Place: Comparable {
        var page: Int
        var position: Int
        static func < (a: Place, b: Place) -> Bool { (a.page, a.position) < (b.page, b.position) }
    }

    /// The last page of the list's current generation.
    private static func lastCurrentPage(of row: ListRow, _ db: Database) throws -> (
        id: Int64, nextToken: PageToken?
    ) {
        guard
            let found = try Row.fetchOne(
                db,
                sql:
                    "SELECT id, next_token FROM pages WHERE collection_id = ? AND generation = ? ORDER BY idx DESC LIMIT 1",
                arguments: [row.id, row.generation])
        else { throw CacheError.listNotFound(key: row.key) }
        return (found[0], (found[1] as String?).map(PageToken.init(rawValue:)))
    }

    /// Records a gap on a page after the item at `position`, continued by `token`.
    static func recordGap(onPage pageID: Int64, after position: Int, token: PageToken, now: Date, _ db: Database) throws
    {
        try db.execute(
            sql: "INSERT INTO gaps (page_id, after_position, token, items, created_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [pageID, position, token.rawValue, nil as Int?, now.timeIntervalSince1970])
    }

    /// Removes a gap: the runs on each side of it met.
    static func deleteGap(_ id: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM gaps WHERE id = ?", arguments: [id])
    }
}

/// Where the reader of a list stopped.
extension SQLiteCache {
    /// The item an app last recorded as where the list's reader stopped; `nil` when none was
    /// recorded or the list is not cached.
    public func readingPosition(of key: String) throws -> ItemKey? {
        try read { db in
            try ItemKey.fetchOne(db, sql: "SELECT reading_position FROM collections WHERE key = ?", arguments: [key])
        }
    }

    /// Records where the list's reader stopped (`nil` forgets it); kept in the file, so a relaunch opens there.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a `DatabaseError`.
    public func setReadingPosition(_ position: ItemKey?, for key: String) throws {
        try write { db in
            let id = try ListRow.id(forKey: key, in: db)
            try db.execute(sql: "UPDATE collections SET reading_position = ? WHERE id = ?", arguments: [position, id])
        }
    }
}
