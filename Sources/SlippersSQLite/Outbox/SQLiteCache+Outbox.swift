import Foundation
import GRDB
import Slippers
import SlippersStorage

/// How an item's JSON relates to the server's copy (`items.overlaid`).
enum Overlay: Int {
    /// The item is the server's copy.
    case none = 0
    /// Pending or failed writes are applied over the server's copy.
    case changed = 1
    /// A pending or failed write deleted it: no page lists it.
    case deleted = 2
    /// Made locally (an insert not yet acknowledged): the server has no copy; a fetched page
    /// that does not list it leaves it where it was placed.
    case inserted = 3
}

/// Offline writes: changes made to cached items, shown at once, kept in an outbox until the server acknowledges them.
///
/// A write is applied to the item in the same transaction that puts it in the outbox, so every
/// list showing the item (in this process and in others) shows the change; the
/// server's copy is kept apart. A page fetched later never hides a pending change:
/// its copy of the item becomes the server's copy, with the pending writes applied
/// over it. Acknowledging a write makes the server's answer the item's copy.
///
/// For example:
///
/// ```swift
/// let write = try cache.writeLocally(
///     WriteRequest(kind: .merge, json: Data(#"{"liked": true}"#.utf8), url: "https://api.example.com/posts/42/"),
///     type: "posts@https://api.example.com", key: .integer(42))
/// // … later, after the server answered 200 with the item:
/// try cache.acknowledgeWrite(write.id, serverJSON: response.body)
/// ```
extension SQLiteCache {
    /// Applies a change to a cached item at once and keeps it in the outbox until a push sends it, in one transaction.
    ///
    /// - returns: The write, as the outbox holds it.
    /// - throws: `SQLiteCacheError.itemNotFound(type:key:)`, `SQLiteCacheError.invalidJSON(_:)` for a patch
    ///   or item that is not JSON (or a merge that is not an object), or a `DatabaseError`.
    @discardableResult
    public func writeLocally(_ request: WriteRequest, type: String, key: ItemKey, now: Date = Date()) throws
        -> PendingWrite
    {
        if request.kind == .insert {
            throw SQLiteCacheError.invalidJSON("an insert places a new item in a list: give it to insertLocally")
        }
        if request.kind != .delete {
            guard let json = request.json else {
                throw SQLiteCacheError.invalidJSON("a \(request.kind.rawValue) needs JSON")
            }
            let value = try JSONMergePatch.value(json, what: "the change")
            if request.kind == .merge, !(value is [String: Any]) {
                throw SQLiteCacheError.invalidJSON("a merge patch is a JSON object")
            }
        }
        return try write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, json, overlaid FROM items WHERE type = ? AND key = ?", arguments: [type, key])
            else { throw SQLiteCacheError.itemNotFound(type: type, key: key.description) }
            let itemID: Int64 = row[0]
            let overlay = Overlay(rawValue: row[2]) ?? .none
            if overlay == .none {
                try db.execute(
                    sql: "INSERT INTO item_server_copies (item_id, json, version, updated_at) VALUES (?, ?, ?, ?)",
                    arguments: [itemID, row[1] as Data, request.baseVersion, now.storedValue])
            }
            var pending = request
            if request.kind == .delete { pending.json = nil }
            let write = try Self.appendToOutbox(pending, itemID: itemID, type: type, key: key, now: now, in: db)
            let server = try Data.fetchOne(
                db, sql: "SELECT json FROM item_server_copies WHERE item_id = ?", arguments: [itemID])
            let result = try Self.reapplyWrites(toServerCopy: server ?? row[1], of: itemID, now: now, in: db)
            if result.isDeleted, overlay != .deleted { try Self.removeFromPages(itemID, in: db) }
            return write
        }
    }

    /// The writes of the outbox, oldest first: pending and failed.
    ///
    /// - throws: A `DatabaseError`.
    public func pendingWrites() throws -> [PendingWrite] {
        try pendingWrites(after: nil, limit: nil)
    }

    /// The writes of the outbox after the write `id` (from the first for `nil`), oldest first, at most `limit`:
    /// a long outbox read a batch at a time.
    ///
    /// - throws: A `DatabaseError`.
    public func pendingWrites(after id: Int64?, limit: Int?) throws -> [PendingWrite] {
        try read { db in
            // A file opened read-only before its migration to the outbox has none.
            guard try db.tableExists("outbox") else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT o.id, i.type, i.key, o.kind, o.method, o.url, o.body, o.idempotency_key, o.base_version,
                        o.state, o.error, o.attempts, o.created_at
                    FROM outbox o JOIN items i ON i.id = o.item_id WHERE o.id > ? ORDER BY o.id LIMIT ?
                    """, arguments: [id ?? Int64.min, limit ?? -1]
            ).map(Self.pendingWrite)
        }
    }

    /// The writes of items of `type` in the outbox: waiting to be sent (pending or in doubt), and failed.
    ///
    /// - throws: A `DatabaseError`.
    public func outboxCounts(type: String) throws -> (pending: Int, failed: Int) {
        try read { db in
            guard try db.tableExists("outbox") else { return (0, 0) }
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT coalesce(sum(o.state != 'failed'), 0), coalesce(sum(o.state = 'failed'), 0)
                    FROM outbox o JOIN items i ON i.id = o.item_id WHERE i.type = ?
                    """, arguments: [type])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// The keys and stored styles of the lists whose current pages list an item: where an
    /// insert placed it, for looking for it on the server.
    ///
    /// - throws: A `DatabaseError`.
    public func lists(listing type: String, key: ItemKey) throws -> [(key: String, style: String?)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT c.key, c.style FROM items i JOIN page_items pi ON pi.item_id = i.id
                    JOIN pages p ON p.id = pi.page_id JOIN collections c ON c.id = p.collection_id
                    WHERE i.type = ? AND i.key = ? AND p.generation = c.generation
                    """, arguments: [type, key]
            ).map { (key: $0[0], style: $0[1]) }
        }
    }

    /// The number of writes in the outbox, pending and failed.
    ///
    /// - throws: A `DatabaseError`.
    public func pendingWriteCount() throws -> Int {
        try read { db in
            guard try db.tableExists("outbox") else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox") ?? 0
        }
    }

    /// The number of writes in the outbox, pending and failed, by the account they belong to;
    /// accounts without any are left out.
    ///
    /// - throws: A `DatabaseError`.
    public func pendingWriteCounts() throws -> [Account: Int] {
        try read { db in
            guard try db.tableExists("outbox") else { return [:] }
            let rows = try Row.fetchAll(
                db, sql: "SELECT i.type, count(*) FROM outbox o JOIN items i ON i.id = o.item_id GROUP BY i.type")
            var counts: [Account: Int] = [:]
            for row in rows {
                counts[ListKey.account(ofItemType: row[0]).account, default: 0] += row[1] as Int
            }
            return counts
        }
    }

    /// The server's copy of an item that has pending writes; `nil` for an item without.
    ///
    /// - throws: A `DatabaseError`.
    public func serverCopy(type: String, key: ItemKey) throws -> Data? {
        try read { db in
            guard try db.tableExists("item_server_copies") else { return nil }
            return try Data.fetchOne(
                db,
                sql: """
                    SELECT c.json FROM item_server_copies c JOIN items i ON i.id = c.item_id
                    WHERE i.type = ? AND i.key = ?
                    """, arguments: [type, key])
        }
    }

    /// Records that the server applied a write: it leaves the outbox, and the server's answer
    /// (the item as it now is) becomes the item's server copy, with any later writes applied over it.
    ///
    /// - parameter serverJSON: The item the server answered with; `nil` when it answered none
    ///   (`204`), then the write itself is applied to the server's copy.
    /// - parameter serverKey: For an insert, the id the server gave the item: the item is filed
    ///   under it from now on, and the URLs of its later writes name it. When an item with that id
    ///   is cached already (a page brought it), the local one gives way to it.
    /// - parameter itemURL: For an insert, where the server says the item now is (its `Location`):
    ///   the item's later writes, made while the insert waited, go there.
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func acknowledgeWrite(
        _ id: Int64, serverJSON: Data? = nil, serverKey: ItemKey? = nil, itemURL: String? = nil, now: Date = Date()
    ) throws {
        try write { db in
            let write = try Self.outboxRow(id, in: db)
            try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id])
            var itemID = write.itemID
            var server = try Self.serverCopy(of: itemID, in: db)
            switch write.kind {
            case .delete:
                break
            case .merge:
                server = try serverJSON ?? write.body.map { try JSONMergePatch.apply($0, to: server) } ?? server
            case .replace:
                server = serverJSON ?? write.body ?? server
            case .insert:
                server = serverJSON ?? server
                // The pages it was pinned on are rewritten when next fetched, even unchanged: the
                // server's pages decide where it stands from now on.
                try db.execute(
                    sql: """
                        UPDATE pages SET digest = NULL, etag = NULL, last_modified = NULL
                        WHERE id IN (SELECT page_id FROM page_items WHERE item_id = ?)
                        """, arguments: [itemID])
                if let serverKey { itemID = try Self.rekey(itemID, to: serverKey, in: db) }
                if let itemURL {
                    try db.execute(
                        sql: "UPDATE outbox SET url = ? WHERE item_id = ? AND kind != 'insert'",
                        arguments: [itemURL, itemID])
                }
            }
            _ = try Self.reapplyWrites(toServerCopy: server, of: itemID, now: now, in: db)
        }
    }

    /// Marks a write refused by the server: it stays in the outbox, and its change stays shown,
    /// until it is retried or discarded.
    ///
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func failWrite(_ id: Int64, reason: String, now: Date = Date()) throws {
        try updateWrite(id, set: "state = 'failed', error = ?", text: reason, now: now)
    }

    /// Marks a `POST` whose answer never arrived and that the server could not be checked for:
    /// it waits, with `reason` saying what to check, until it is retried or discarded.
    ///
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func markWriteInDoubt(_ id: Int64, reason: String, now: Date = Date()) throws {
        try updateWrite(id, set: "state = 'in_doubt', error = ?", text: reason, now: now)
    }

    /// Records the version of the item a write is based on, as the server now gives it (the
    /// `ETag` of its `GET`): the `If-Match` the write is sent with.
    ///
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func setBaseVersion(ofWrite id: Int64, to version: String, now: Date = Date()) throws {
        try updateWrite(id, set: "base_version = ?", text: version, now: now)
    }

    /// Counts one more attempt to send a write.
    ///
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func recordAttempt(ofWrite id: Int64, now: Date = Date()) throws {
        try updateWrite(id, set: "attempts = attempts + 1", now: now)
    }

    /// Makes a failed write pending again: it is sent at the next push.
    ///
    /// An insert in doubt is retried on the caller's word that the server does not hold it: it
    /// is sent as a new one, without being looked for first (a lookup that could not decide
    /// before would not decide now).
    ///
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func retryWrite(_ id: Int64, now: Date = Date()) throws {
        try updateWrite(
            id, set: "attempts = CASE state WHEN 'in_doubt' THEN 0 ELSE attempts END, state = 'pending', error = NULL",
            now: now)
    }

    /// Drops a write without sending it: its change is undone (the item is the server's copy
    /// with the item's other writes applied). Discarding an insert drops the item made locally,
    /// with its later writes: it leaves every list.
    ///
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func discardWrite(_ id: Int64, now: Date = Date()) throws {
        try write { db in
            let write = try Self.outboxRow(id, in: db)
            if write.kind == .insert {
                try Self.dropLocalItem(write.itemID, in: db)
                return
            }
            try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id])
            _ = try Self.reapplyWrites(
                toServerCopy: try Self.serverCopy(of: write.itemID, in: db), of: write.itemID, now: now, in: db)
        }
    }

    /// Resolves a conflict in the server's favour: every write of the write's item is dropped,
    /// and the item becomes `serverJSON` (the server's current copy), or its stored server copy.
    ///
    /// - throws: `SQLiteCacheError.writeNotFound(id:)`, or a `DatabaseError`.
    public func resolveWithServer(_ id: Int64, serverJSON: Data?, now: Date = Date()) throws {
        try write { db in
            let write = try Self.outboxRow(id, in: db)
            try db.execute(sql: "DELETE FROM outbox WHERE item_id = ?", arguments: [write.itemID])
            let server = try serverJSON ?? Self.serverCopy(of: write.itemID, in: db)
            _ = try Self.reapplyWrites(toServerCopy: server, of: write.itemID, now: now, in: db)
        }
    }

    /// Records where a list's items are written: a URL with `{id}` for the id, or `nil` for the default.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a `DatabaseError`.
    public func setItemURLTemplate(_ template: String?, for key: String) throws {
        try write { db in
            try db.execute(sql: "UPDATE collections SET item_url = ? WHERE key = ?", arguments: [template, key])
            guard db.changesCount > 0 else { throw CacheError.listNotFound(key: key) }
        }
    }

    /// Where a list's items are written, as ``setItemURLTemplate(_:for:)`` recorded it; `nil` when it was not.
    ///
    /// - throws: A `DatabaseError`.
    public func itemURLTemplate(for key: String) throws -> String? {
        try read { db in
            guard try db.columns(in: "collections").contains(where: { $0.name == "item_url" }) else { return nil }
            return try String.fetchOne(db, sql: "SELECT item_url FROM collections WHERE key = ?", arguments: [key])
        }
    }

    // MARK: Inside a transaction

    /// Adds a write of an item to the outbox, pending, with a new idempotency key; `request.json` is its body.
    static func appendToOutbox(
        _ request: WriteRequest, itemID: Int64, type: String, key: ItemKey, now: Date, in db: Database
    ) throws -> PendingWrite {
        let idempotencyKey = UUID().uuidString.lowercased()
        try db.execute(
            sql: """
                INSERT INTO outbox (item_id, kind, method, url, body, idempotency_key, base_version,
                    created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                itemID, request.kind.rawValue, request.method, request.url, request.json, idempotencyKey,
                request.baseVersion, now.storedValue, now.storedValue,
            ])
        return PendingWrite(
            id: db.lastInsertedRowID, itemType: type, itemKey: key, kind: request.kind, method: request.method,
            url: request.url, body: request.json, idempotencyKey: idempotencyKey, baseVersion: request.baseVersion,
            state: .pending, error: nil, attempts: 0, createdAt: now)
    }

    /// Makes `server` the item's server copy and its JSON that copy with the item's writes applied,
    /// in order; with no write left, the item is the server's copy again.
    static func reapplyWrites(toServerCopy server: Data, of itemID: Int64, now: Date, in db: Database) throws -> (
        json: Data, isDeleted: Bool
    ) {
        let writes = try Row.fetchAll(
            db, sql: "SELECT kind, body FROM outbox WHERE item_id = ? ORDER BY id", arguments: [itemID])
        var json = server
        var isDeleted = false
        var isInserted = false
        for write in writes {
            let body: Data? = write["body"]
            switch PendingWrite.Kind(rawValue: write["kind"]) {
            case .merge?: if let body { json = try JSONMergePatch.apply(body, to: json) }
            case .replace?: if let body { json = body }
            case .delete?: isDeleted = true
            // The item as made locally is its own server copy until the server answers.
            case .insert?: isInserted = true
            case nil: break
            }
        }
        let overlay: Overlay = writes.isEmpty ? .none : isDeleted ? .deleted : isInserted ? .inserted : .changed
        try db.execute(
            sql: "UPDATE items SET json = ?, overlaid = ?, updated_at = ? WHERE id = ?",
            arguments: [json, overlay.rawValue, now.storedValue, itemID])
        if overlay == .none {
            try db.execute(sql: "DELETE FROM item_server_copies WHERE item_id = ?", arguments: [itemID])
        } else {
            try db.execute(
                sql: """
                    INSERT INTO item_server_copies (item_id, json, updated_at) VALUES (?1, ?2, ?3)
                    ON CONFLICT (item_id) DO UPDATE SET json = ?2, updated_at = ?3
                    """,
                arguments: [itemID, server, now.storedValue])
        }
        return (json, isDeleted)
    }

    /// Takes an item deleted locally out of every page, the positions after it closed up. The
    /// pages' digests are forgotten, so the next fetch of each rewrites its membership (and a
    /// discarded delete shows the item again).
    static func removeFromPages(_ itemID: Int64, in db: Database) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT page_id, position FROM page_items WHERE item_id = ?", arguments: [itemID])
        for row in rows {
            let (pageID, position): (Int64, Int) = (row[0], row[1])
            try db.execute(
                sql: "DELETE FROM page_items WHERE page_id = ? AND position = ?", arguments: [pageID, position])
            try shiftItems(onPage: pageID, after: position, by: -1, in: db)
        }
    }

    /// Moves a page's items after `position` by `delta` places (1 opens a place, -1 closes one)
    /// and counts the page `delta` items more; its digest is forgotten, so that its next fetch
    /// rewrites its membership. The rows move through negative numbers, so that no two ever hold
    /// one position.
    static func shiftItems(onPage pageID: Int64, after position: Int, by delta: Int, in db: Database) throws {
        try db.execute(
            sql: "UPDATE page_items SET position = -(position + ?) - 1 WHERE page_id = ? AND position > ?",
            arguments: [delta, pageID, position])
        try db.execute(
            sql: "UPDATE page_items SET position = -position - 1 WHERE page_id = ? AND position < 0",
            arguments: [pageID])
        try db.execute(
            sql: "UPDATE pages SET item_count = item_count + ?, digest = NULL WHERE id = ?", arguments: [delta, pageID])
        // A gap below the moved items moves with them; so does one right below a removed item.
        try db.execute(
            sql: "UPDATE gaps SET after_position = after_position + ? WHERE page_id = ? AND after_position > ?",
            arguments: [delta, pageID, delta < 0 ? position - 1 : position])
    }

    private struct OutboxRow {
        var itemID: Int64
        var kind: PendingWrite.Kind
        var body: Data?
    }

    private static func outboxRow(_ id: Int64, in db: Database) throws -> OutboxRow {
        guard
            let row = try Row.fetchOne(db, sql: "SELECT item_id, kind, body FROM outbox WHERE id = ?", arguments: [id])
        else { throw SQLiteCacheError.writeNotFound(id: id) }
        return OutboxRow(itemID: row[0], kind: PendingWrite.Kind(rawValue: row[1]) ?? .merge, body: row[2])
    }

    private static func serverCopy(of itemID: Int64, in db: Database) throws -> Data {
        if let copy = try Data.fetchOne(
            db, sql: "SELECT json FROM item_server_copies WHERE item_id = ?", arguments: [itemID])
        {
            return copy
        }
        return try Data.fetchOne(db, sql: "SELECT json FROM items WHERE id = ?", arguments: [itemID]) ?? Data("{}".utf8)
    }

    /// Sets columns of a write (`set` may hold one `?`, bound to `text`) and its update time.
    private func updateWrite(_ id: Int64, set columns: String, text: String? = nil, now: Date) throws {
        try write { db in
            let sql = "UPDATE outbox SET \(columns), updated_at = ? WHERE id = ?"
            let arguments: StatementArguments =
                text.map { [$0, now.storedValue, id] } ?? [now.storedValue, id]
            try db.execute(sql: sql, arguments: arguments)
            guard db.changesCount > 0 else { throw SQLiteCacheError.writeNotFound(id: id) }
        }
    }

    private static func pendingWrite(_ row: Row) -> PendingWrite {
        PendingWrite(
            id: row["id"], itemType: row["type"], itemKey: row["key"],
            kind: PendingWrite.Kind(rawValue: row["kind"]) ?? .merge, method: row["method"], url: row["url"],
            body: row["body"], idempotencyKey: row["idempotency_key"], baseVersion: row["base_version"],
            state: PendingWrite.State(rawValue: row["state"]) ?? .pending, error: row["error"],
            attempts: row["attempts"], createdAt: Date(storedValue: row["created_at"]))
    }
}
