import Foundation
import GRDB
import Slippers
import SlippersStorage

/// Items made locally: shown in their list at once, created on the server by the outbox.
extension SQLiteCache {
    /// Makes an item locally: it is cached and placed in a list at once, in one transaction, and
    /// its insert waits in the outbox (a `POST` of `request.json` to `request.url`, the list's).
    ///
    /// Give the item a provisional id that no server item has (a negative number, or a UUID).
    /// When the server acknowledges the insert, the item takes the id the server answered with
    /// (``acknowledgeWrite(_:serverJSON:serverKey:now:)``); until then, changes and a delete of it are
    /// kept in the outbox as for any item, and sent after the insert, to the URL of the server's id.
    ///
    /// - parameter item: The item as lists show it, with its provisional id as `key`.
    /// - parameter request: What is sent: an ``PendingWrite/Kind/insert`` with the JSON to post.
    /// - parameter listKey: The list it is placed in; it must have a cached page.
    /// - parameter position: Where in the list it shows until the server has it.
    /// - returns: The insert, as the outbox holds it.
    /// - throws: `CacheError.listNotFound(key:)` for a list with no cached page,
    ///   `SQLiteCacheError.invalidJSON(_:)` when the item or the request is not a JSON object or the id
    ///   is cached already, or a `DatabaseError`.
    @discardableResult
    public func insertLocally(
        _ item: RawItem, type: String, request: WriteRequest, into listKey: String,
        at position: InsertPosition = .first, now: Date = Date()
    ) throws -> PendingWrite {
        guard request.kind == .insert else {
            throw SQLiteCacheError.invalidJSON("insertLocally takes an insert, not a \(request.kind.rawValue)")
        }
        // What is posted: the request's JSON, else the item; a new item has no version to match.
        var posted = request
        posted.json = request.json ?? item.json
        posted.baseVersion = nil
        let sent = posted
        for json in request.json.map({ [item.json, $0] }) ?? [item.json]
        where !(try JSONMergePatch.value(json, what: "the new item") is [String: Any]) {
            throw SQLiteCacheError.invalidJSON("a new item is a JSON object")
        }
        return try write { db in
            let pageID = try Self.insertPage(listKey, at: position, in: db)
            if try Int64.fetchOne(
                db, sql: "SELECT id FROM items WHERE type = ? AND key = ?", arguments: [type, item.key]) != nil
            {
                throw SQLiteCacheError.invalidJSON(
                    "an item \(item.key.description.shortenedForErrors) is cached already: give a new item a provisional id"
                )
            }
            try db.execute(
                sql: "INSERT INTO items (type, key, json, updated_at, overlaid) VALUES (?, ?, ?, ?, ?)",
                arguments: [type, item.key, item.json, now.storedValue, Overlay.inserted.rawValue])
            let itemID = db.lastInsertedRowID
            try db.execute(
                sql: "INSERT INTO item_server_copies (item_id, json, updated_at) VALUES (?, ?, ?)",
                arguments: [itemID, item.json, now.storedValue])
            let write = try Self.appendToOutbox(sent, itemID: itemID, type: type, key: item.key, now: now, in: db)
            try Self.place(itemID, onPage: pageID, at: position, in: db)
            return write
        }
    }

    /// The ids among `keys` that the cache held as items of an insert's type before the insert
    /// was made: an item the server lists with any other id is new since then, and may be the
    /// insert itself when its answer was lost.
    ///
    /// An item's row is never renumbered, and a row made later has a larger number: the rows
    /// before the insert's own are the ones held before it.
    ///
    /// - parameter keys: Ids of items a list shows.
    /// - parameter writeID: The insert's number in the outbox.
    /// - returns: Those of `keys` held before the insert.
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func heldKeys(among keys: [ItemKey], beforeInsert writeID: Int64) throws -> Set<ItemKey> {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT i.id, i.type FROM outbox o JOIN items i ON i.id = o.item_id WHERE o.id = ?",
                    arguments: [writeID])
            else { throw SQLiteCacheError.writeNotFound(id: writeID) }
            let (itemID, type): (Int64, String) = (row[0], row[1])
            var held: Set<ItemKey> = []
            // A page of ids at a time, well under SQLite's limit on bound values.
            for start in stride(from: 0, to: keys.count, by: 500) {
                let chunk = Array(keys[start..<min(start + 500, keys.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                var arguments: StatementArguments = [type, itemID]
                arguments += StatementArguments(chunk)
                let found = try ItemKey.fetchAll(
                    db, sql: "SELECT key FROM items WHERE type = ? AND id < ? AND key IN (\(marks))",
                    arguments: arguments)
                held.formUnion(found)
            }
            return held
        }
    }

    // MARK: Inside a transaction

    /// The page a new item is placed on: the first page of the list's current generation, or its last.
    private static func insertPage(_ key: String, at position: InsertPosition, in db: Database) throws -> Int64 {
        let order = position == .first ? "ASC" : "DESC"
        guard
            let pageID = try Int64.fetchOne(
                db,
                sql: """
                    SELECT p.id FROM pages p JOIN collections c ON c.id = p.collection_id
                    WHERE c.key = ? AND p.generation = c.generation ORDER BY p.idx \(order) LIMIT 1
                    """, arguments: [key])
        else { throw CacheError.listNotFound(key: key) }
        return pageID
    }

    /// Puts an item on a page: before its first item, or after its last.
    private static func place(_ itemID: Int64, onPage pageID: Int64, at position: InsertPosition, in db: Database)
        throws
    {
        let at =
            position == .first
            ? 0
            : try Int.fetchOne(
                db, sql: "SELECT coalesce(max(position) + 1, 0) FROM page_items WHERE page_id = ?",
                arguments: [pageID]) ?? 0
        // Opens the place (no row moves when it is at the end).
        try insertItems([itemID], onPage: pageID, after: at - 1, in: db)
    }

    /// The items made locally (and with `changedToo`, those with a pending change) that a page
    /// lists, split into those placed before its fetched items and after.
    ///
    /// A page fetched again keeps them where they were placed when it does not list them: the
    /// server does not list an item made locally yet, and one it removed keeps its pending change.
    static func pendingItems(onPage pageID: Int64, changedToo: Bool, in db: Database) throws -> (
        first: [Int64], last: [Int64]
    ) {
        // Most files have no write pending: one probe of the (short) outbox settles it.
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM outbox)")) == true
        else { return ([], []) }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT pi.position, pi.item_id FROM page_items pi JOIN items i ON i.id = pi.item_id
                WHERE pi.page_id = ? AND i.overlaid IN (?, ?) ORDER BY pi.position
                """, arguments: [pageID, Overlay.inserted.rawValue, changedToo ? Overlay.changed.rawValue : -1])
        var first: [Int64] = []
        var last: [Int64] = []
        for (index, row) in rows.enumerated() {
            if row[0] as Int == index { first.append(row[1]) } else { last.append(row[1]) }
        }
        return (first, last)
    }

    /// Files an item made locally under the id the server gave it, and points the URLs of its later
    /// writes at that id. When the server's item is cached already, the local one gives way to it.
    ///
    /// - returns: The row id the item has now.
    static func rekey(_ itemID: Int64, to serverKey: ItemKey, in db: Database) throws -> Int64 {
        guard let row = try Row.fetchOne(db, sql: "SELECT type, key FROM items WHERE id = ?", arguments: [itemID])
        else { return itemID }
        let (type, localKey): (String, ItemKey) = (row[0], row[1])
        guard localKey != serverKey else { return itemID }
        var target = itemID
        if let existing = try Int64.fetchOne(
            db, sql: "SELECT id FROM items WHERE type = ? AND key = ?", arguments: [type, serverKey])
        {
            try removeFromPages(itemID, in: db)
            try db.execute(sql: "UPDATE outbox SET item_id = ? WHERE item_id = ?", arguments: [existing, itemID])
            try db.execute(sql: "DELETE FROM item_server_copies WHERE item_id = ?", arguments: [itemID])
            try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [itemID])
            target = existing
        } else {
            try db.execute(sql: "UPDATE items SET key = ? WHERE id = ?", arguments: [serverKey, itemID])
        }
        for write in try Row.fetchAll(db, sql: "SELECT id, url FROM outbox WHERE item_id = ?", arguments: [target]) {
            let (id, url): (Int64, String) = (write[0], write[1])
            let rewritten = replacingSegment(localKey.pathSegment, with: serverKey.pathSegment, in: url)
            if rewritten != url {
                try db.execute(sql: "UPDATE outbox SET url = ? WHERE id = ?", arguments: [rewritten, id])
            }
        }
        return target
    }

    /// `url` with each path segment that is `old` replaced by `new`; the query and fragment are left alone.
    static func replacingSegment(_ old: String, with new: String, in url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        components.percentEncodedPath = segments.map { $0 == old ? new : String($0) }.joined(separator: "/")
        return components.string ?? url
    }

    /// Drops an item made locally and never acknowledged: its writes, its place in pages and its row.
    static func dropLocalItem(_ itemID: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM outbox WHERE item_id = ?", arguments: [itemID])
        if try Int.fetchOne(db, sql: "SELECT overlaid FROM items WHERE id = ?", arguments: [itemID])
            != Overlay.deleted.rawValue
        {
            try removeFromPages(itemID, in: db)
        }
        try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [itemID])
    }
}
