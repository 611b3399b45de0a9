import Foundation
import GRDB
import Slippers
import SlippersStorage

/// The head of a list whose new items come first: read from its first page until a page of
/// items the cache holds unchanged, and merged at the top.
extension SQLiteCache {
    /// Whether the list's new items come first: `nil` until ``setNewestFirst(_:for:)`` records it
    /// (or the list is not cached).
    public func newestFirst(_ key: String) throws -> Bool? {
        try read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT newest_first FROM collections WHERE key = ?"), arguments: [key])
        }
    }

    /// Records whether the list's new items come first.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a `DatabaseError`.
    public func setNewestFirst(_ newestFirst: Bool, for key: String) throws {
        try write { db in
            let id = try ListRow.id(forKey: key, in: db)
            try db.execute(sql: "UPDATE collections SET newest_first = ? WHERE id = ?", arguments: [newestFirst, id])
        }
    }

    /// How many of `items` a page of the list's current generation lists with the same JSON.
    public func unchangedCount(of items: [RawItem], in key: String) throws -> Int {
        guard !items.isEmpty else { return 0 }
        return try read { db in
            guard let row = try ListRow.fetchOptional(key: key, in: db) else { return 0 }
            let stored = try Self.storedItems(of: items.map(\.key), type: row.itemType, in: db)
            let listed = try Self.listedIDs(stored.values.map(\.id), in: row, db)
            return items.count { item in
                guard let found = stored[item.key] else { return false }
                return found.json == item.json && listed.contains(found.id)
            }
        }
    }

    /// Merges the first items of a list, as its server now sends them, into the cached list, in one
    /// transaction: see `CacheStorage.mergeHead(_:total:in:)`.
    @discardableResult
    public func mergeHead(_ items: [RawItem], total: Int?, in list: ListDescriptor) throws -> HeadMerge {
        try mergeHead(items, total: total, in: list, now: Date())
    }

    /// Merges the first items of a list into the cached list, stamped `now`; see ``mergeHead(_:total:in:)``.
    @discardableResult
    public func mergeHead(
        _ items: [RawItem], total: Int?, in list: ListDescriptor, now: Date
    ) throws -> HeadMerge {
        try write { db in try Self.mergeHead(items, total: total, in: list, now: now, db).merge }
    }

    /// Merges the first items of a list into the cached list, inside a write transaction.
    ///
    /// - returns: The merge, the row id of the first page it wrote to, and whether any of `items`
    ///   was listed already (the items continue the cached run).
    static func mergeHead(
        _ items: [RawItem], total: Int?, in list: ListDescriptor, now: Date, _ db: Database
    ) throws -> (merge: HeadMerge, firstPage: Int64, metListedItem: Bool) {
        var row = try ListRow.fetch(key: list.key, in: db)
        let firstPage = try Self.currentPageID(at: 0, of: row, db)
        let before = try Self.storedItems(of: items.map(\.key), type: row.itemType, in: db)
        let listed = try Self.listedIDs(before.values.map(\.id), in: row, db)
        var deleted: Set<Int64> = []
        let ids = try Self.upsertItems(items, type: row.itemType, now: now, in: db, deleted: &deleted)
        let metListedItem = ids.contains { listed.contains($0) }
        var added: [Int64] = []
        var updated = 0
        var met: Set<Int64> = []
        for (item, id) in zip(items, ids) where met.insert(id).inserted && !deleted.contains(id) {
            if listed.contains(id) {
                if before[item.key]?.json != item.json { updated += 1 }
            } else {
                added.append(id)
            }
        }
        try Self.insertItems(added, onPage: firstPage, after: -1, in: db)
        if let total {
            row.total = total
            try row.update(in: db)
        }
        if !added.isEmpty { ItemViews.keepCurrent(afterWritingPage: firstPage, now: now, db) }
        return (HeadMerge(added: added.count, updated: updated), firstPage, metListedItem)
    }

    // MARK: Inside a transaction

    /// Lists `itemIDs` on a page after the item at `position` (-1: first), moving the items and gaps below them down.
    static func insertItems(_ itemIDs: [Int64], onPage pageID: Int64, after position: Int, in db: Database) throws {
        guard !itemIDs.isEmpty else { return }
        try shiftItems(onPage: pageID, after: position, by: itemIDs.count, in: db)
        for (offset, id) in itemIDs.enumerated() {
            try db.cachedStatement(sql: "INSERT INTO page_items (page_id, position, item_id) VALUES (?, ?, ?)")
                .execute(arguments: [pageID, position + 1 + offset, id])
        }
    }

    /// The stored rows of the items of a type among `keys`, by key.
    static func storedItems(of keys: [ItemKey], type: String, in db: Database) throws -> [ItemKey: (
        id: Int64, json: Data
    )] {
        var found: [ItemKey: (id: Int64, json: Data)] = [:]
        for chunk in keys.chunks(of: itemsPerLookup) {
            let statement = try db.cachedStatement(
                sql: "SELECT key, id, json FROM items WHERE type = ? AND key IN ("
                    + repeatElement("?", count: chunk.count).joined(separator: ", ") + ")")
            var arguments: [(any DatabaseValueConvertible)?] = [type]
            for key in chunk { arguments.append(key) }
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
            while let row = try rows.next() { found[row[0] as ItemKey] = (row[1], row[2]) }
        }
        return found
    }

    /// Which of `itemIDs` a page of the list's current generation lists.
    static func listedIDs(_ itemIDs: [Int64], in list: ListRow, _ db: Database) throws -> Set<Int64> {
        var listed: Set<Int64> = []
        for chunk in itemIDs.chunks(of: itemsPerLookup) {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT DISTINCT pi.item_id FROM page_items pi CROSS JOIN pages p ON p.id = pi.page_id
                    WHERE p.collection_id = ? AND p.generation = ? AND pi.item_id IN (
                    """ + repeatElement("?", count: chunk.count).joined(separator: ", ") + ")")
            var arguments: [(any DatabaseValueConvertible)?] = [list.id, list.generation]
            for id in chunk { arguments.append(id) }
            listed.formUnion(try Int64.fetchAll(statement, arguments: StatementArguments(arguments)))
        }
        return listed
    }
}
