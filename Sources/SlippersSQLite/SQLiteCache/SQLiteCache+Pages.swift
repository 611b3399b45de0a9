import Foundation
import GRDB
import Logging
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// Saves a fetched page, its items and the list's resume token in one transaction.
    ///
    /// When the file has a ``CacheBudget``, it is kept after the save, at most every
    /// ``budgetCheckInterval``.
    ///
    /// Saving page 0 starts a new generation: the list's other pages
    /// stay readable but are superseded until they are saved again. Saving the
    /// last page (no next token) removes the superseded pages after it and marks
    /// the end reached. Items are upserted by (type, key): the same item
    /// reached through two lists is one row, and the latest JSON wins.
    ///
    /// For example:
    ///
    /// ```swift
    /// let posts = ListDescriptor(key: "GET /posts", itemType: "Post")
    /// try cache.savePage(firstPage, at: 0, in: posts)
    /// try cache.savePage(secondPage, at: 1, in: posts)
    /// ```
    ///
    /// - parameter page: The page, as its source delivered it.
    /// - parameter index: The page's position, from 0.
    /// - parameter list: The list; it is created on its first page.
    /// - parameter now: The time to record as the page's fetch time.
    /// - returns: The list's head after the save: its row and the number
    ///   of pages of its current generation. Its statistics, which sum over
    ///   every page, are ``list(_:)``'s.
    /// - throws: `CacheError.pageOutOfOrder(list:index:)` when page
    ///   `index - 1` is not cached in the current generation,
    ///   `CacheError.itemTypeMismatch(list:stored:requested:)`, or a `DatabaseError`.
    @discardableResult
    public func savePage(
        _ page: Page<RawItem>,
        at index: Int,
        in list: ListDescriptor,
        now: Date = Date()
    ) throws -> ListHead {
        precondition(index >= 0, "page index must not be negative")
        let head = try write { db in try writePage(page, at: index, in: list, now: now, db) }
        keepBudgetIfDue(now: now)
        return head
    }

    /// Writes a fetched page as ``savePage(_:at:in:now:)`` does, in the transaction `db` is in.
    ///
    /// `looked`, when given, is the lookup of the page's items made earlier in the same transaction,
    /// and `row` the list's row read in it.
    func writePage(
        _ page: Page<RawItem>, at index: Int, in list: ListDescriptor, now: Date,
        looked: StoredItems? = nil, row: ListRow? = nil, _ db: Database
    ) throws -> ListHead {
        try Self.writePage(
            page.keyingHeaderDigest(with: headerFingerprintKey), at: index, in: list, comparingDigest: false,
            now: now, looked: looked, row: row, db
        ).head
    }

    /// Saves a fetched page unless it holds the same items as the cached copy, in one transaction.
    ///
    /// This is revalidation for servers that send no validator: a page whose
    /// items (keys and JSON bytes) are those of the cached page at `index`,
    /// with the same next token, is "not modified" — no item or membership row
    /// is written, no new generation starts, and the resume point stays. Only
    /// the page row records the verification (and the response's validators and
    /// caching headers). A page of an older generation that is unchanged joins
    /// the current one. Any other page is saved as ``savePage(_:at:in:now:)`` saves it.
    ///
    /// - returns: The list's head after the save, and whether the page was new, changed or unchanged.
    /// - throws: As ``savePage(_:at:in:now:)``.
    @discardableResult
    public func savePageIfChanged(
        _ page: Page<RawItem>,
        at index: Int,
        in list: ListDescriptor,
        now: Date = Date()
    ) throws -> PageSave {
        precondition(index >= 0, "page index must not be negative")
        let save = try write { db in
            try Self.writePage(
                page.keyingHeaderDigest(with: headerFingerprintKey), at: index, in: list, comparingDigest: true,
                now: now, db)
        }
        logRevalidation(of: index, in: list.key, outcome: save.outcome.rawValue)
        keepBudgetIfDue(now: now)
        return save
    }

    /// Logs at `info` that fetching the page at `index` failed and is tried again after `wait`.
    func logPageRetry(at index: Int, _ error: any Error, _ wait: Duration) {
        logger.info(
            "retrying page",
            metadata: [
                "page": "\(index)",
                "delay_ms": "\(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)",
                "error": "\(String(describing: error).shortenedForErrors)",
            ])
    }

    /// Logs at `debug` what revalidating a page found: `not modified` (a `304`), `unchanged`, `changed` or `new`.
    func logRevalidation(of index: Int, in key: String, outcome: String) {
        logger.debug(
            "page revalidated",
            metadata: ["list": "\(key.shortenedForErrors)", "page": "\(index)", "outcome": "\(outcome)"])
    }

    /// Records that a cached page is still current (the server answered `304 Not Modified`).
    ///
    /// Only the page row changes: its verification time and validators. No item
    /// row is rewritten. Revalidating page 0 also ends the list's
    /// invalidation; a page of an older generation joins the current one when
    /// the page before it is current.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a `DatabaseError`.
    public func markPageNotModified(
        at index: Int,
        in key: String,
        validators: PageValidators = PageValidators(),
        now: Date = Date()
    ) throws {
        try write { db in
            var row = try ListRow.fetch(key: key, in: db)
            guard let stored = try PageRow.fetch(listID: row.id, index: index, in: db) else { return }
            let joins = try index == 0 || Self.generation(ofPage: index - 1, in: row.id, db) == row.generation
            try db.execute(
                sql: """
                    UPDATE pages SET fetched_at = ?1, verified_at = ?1, etag = coalesce(?2, etag),
                        last_modified = coalesce(?3, last_modified), generation = ?4
                    WHERE id = ?5
                    """,
                arguments: [
                    now.storedValue, validators.etag, validators.lastModified,
                    joins ? row.generation : stored.generation, stored.id,
                ])
            let joinsNow = joins && stored.generation != row.generation
            if joinsNow {
                try Self.moveResumePoint(after: index, nextToken: stored.nextToken, row: &row, db)
            }
            if index == 0 {
                row.invalidatedAt = nil
                row.refreshedAt = now.storedValue
            }
            // A later page confirmed where it was leaves the list's row as it is.
            if index == 0 || joinsNow { try row.update(in: db) }
        }
        logRevalidation(of: index, in: key, outcome: "not modified")
    }

    /// The cached page at `index` of a list, with its items, or `nil` when it is not cached.
    ///
    /// The cost does not depend on `index`: every table is read through a key.
    ///
    /// - throws: A `DatabaseError`.
    public func page(at index: Int, in key: String) throws -> StoredPage? {
        try read { db in try Self.storedPage(at: index, in: key, db) }
    }

    /// The row of the cached page at `index` of a list, without its items; `nil` when it is not cached.
    ///
    /// - throws: A `DatabaseError`.
    public func pageInfo(at index: Int, in key: String) throws -> PageInfo? {
        try read { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.pageRowByIndexSQL), arguments: [key, index]).map(
                Self.pageInfo)
        }
    }

    /// The cached page at `index` with its items, read through its key; `nil` when it is not cached.
    static func storedPage(at index: Int, in key: String, _ db: Database) throws -> StoredPage? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: pageRowByIndexSQL), arguments: [key, index])
        else { return nil }
        let info = pageInfo(row)
        var edited: Set<ItemKey> = []
        let items = try items(ofPage: row["id"], count: info.itemCount, editedKeys: &edited, in: db)
        return StoredPage(info: info, items: items, editedKeys: edited)
    }

    /// The items at `positions` of the cached page at `index`, or `nil` when the page is not cached.
    ///
    /// Only those rows are read: a keyed range of the page's membership, so a
    /// screen can show its first rows before the rest are read at all, e.g.
    /// `positions: 0..<10`, then `10..<page.info.itemCount`. Positions past the
    /// page's end are ignored.
    ///
    /// - throws: A `DatabaseError`.
    public func page(at index: Int, in key: String, positions: Range<Int>) throws -> StoredPage? {
        // One statement, the page's row on each of its item rows: it reads one snapshot without a transaction.
        try readOneStatement { db in
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: Self.pageWithItemRangeSQL),
                arguments: [key, index, positions.lowerBound, positions.upperBound])
            guard let first = try rows.next() else { return nil }
            let info = Self.pageInfo(first)
            var items: [RawItem] = []
            items.reserveCapacity(min(positions.count, info.itemCount))
            if let item = Self.rangeItem(first) { items.append(item) }
            while let row = try rows.next() {
                if let item = Self.rangeItem(row) { items.append(item) }
            }
            return StoredPage(info: info, items: items)
        }
    }

    /// The item of a row of ``pageWithItemRangeSQL``; `nil` on the row of a page with no item in the range.
    ///
    /// Read by column index: a name lookup compares names, once per row.
    private static func rangeItem(_ row: Row) -> RawItem? {
        guard let key = row[rangeItemKeyColumn] as ItemKey? else { return nil }
        return RawItem(key: key, json: row[rangeItemKeyColumn + 1])
    }

    /// The index of `item_key` in ``pageWithItemRangeSQL``'s columns; `item_json` follows it.
    private static let rangeItemKeyColumn = 19

    /// The rows of a list's cached pages, in order.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a `DatabaseError`.
    public func pages(in key: String) throws -> [PageInfo] {
        try read { db in
            _ = try ListRow.id(forKey: key, in: db)
            var pages = try Self.pageInfos(key: key, in: db)
            let gaps = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(
                    db,
                    sql: """
                        SELECT p.idx, COUNT(*) FROM collections c
                        CROSS JOIN pages p ON p.collection_id = c.id AND p.generation = c.generation
                        CROSS JOIN gaps g ON g.page_id = p.id WHERE c.key = ? GROUP BY p.idx
                        """,
                    arguments: [key]
                ).map { ($0[0] as Int, $0[1] as Int) })
            for index in pages.indices { pages[index].gapCount = gaps[pages[index].index] ?? 0 }
            return pages
        }
    }

    /// The whole cached list of a list, read in one transaction.
    ///
    /// Items come in page order, each id once: where pages of two generations
    /// overlap (new items were inserted at the top), the first occurrence wins.
    ///
    /// - returns: The list, or `nil` when the list is not cached.
    /// - throws: A `DatabaseError`.
    public func cachedList(_ key: String) throws -> CachedList? {
        try read { db in
            guard let id = try ListRow.optionalID(forKey: key, in: db) else { return nil }
            var items: [RawItem] = []
            try Self.forEachListedItem(listID: id, in: db) { items.append($0) }
            return CachedList(
                list: try Self.listInfo(id: id, in: db),
                pages: try Self.pageInfos(key: key, in: db),
                items: items)
        }
    }

    /// Calls `body` with each item of a list in list order, each id once, without loading them all.
    ///
    /// Memory stays bounded however long the list: rows are streamed from
    /// SQLite and de-duplicated by the database, not in memory.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, what `body` throws, or a `DatabaseError`.
    public func forEachItem(in key: String, _ body: (RawItem) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            // The closure runs synchronously inside the read; it never outlives this call.
            let unchecked = UncheckedSendable(body)
            try reader.read { db in
                let id = try ListRow.id(forKey: key, in: db)
                try Self.forEachListedItem(listID: id, in: db) { try unchecked.value($0) }
            }
        }
    }

    // MARK: - SQL

    /// The queries that read one page: its row by list key and index, then its items.
    static var pageReadQueries: [String] { [pageRowByIndexSQL, pageItemsSQL, pageWithItemRangeSQL] }

    /// The row of one page, by list key and index.
    static let pageRowByIndexSQL = pageRowSQL + " AND p.idx = ?"

    /// The columns of a page row that ``pageInfo(_:)`` reads: 18 of them.
    static let pageColumnsSQL = """
        p.id, p.idx, p.generation, p.token, p.next_token, p.etag, p.last_modified,
            p.fetched_at, p.item_count, p.verified_at, p.digest, p.lifetime, p.no_cache,
            p.stale_while_revalidate, p.stale_if_error, p.vary, p.vary_key,
            (SELECT generation FROM collections WHERE id = p.collection_id) AS current_generation,
            (SELECT unverified_before FROM collections WHERE id = p.collection_id) AS unverified_before
        """

    /// A page row with its list's current generation; the list is found by key, through its index.
    static let pageRowSQL = """
        SELECT \(pageColumnsSQL)
        FROM pages p
        WHERE p.collection_id = (SELECT id FROM collections WHERE key = ?)
        """

    /// The items of one page, in order: a keyed range of `page_items`, a keyed lookup per item.
    static let pageItemsSQL = """
        SELECT i.key, i.json, i.edited_locally FROM page_items pi JOIN items i ON i.id = pi.item_id
        WHERE pi.page_id = ? ORDER BY pi.position
        """

    /// One page's row, by list key and index, on each of its items at a range of positions, in order;
    /// on one row with no item when none is in the range. A keyed range of `page_items`.
    static let pageWithItemRangeSQL = """
        SELECT \(pageColumnsSQL),
            i.key AS item_key, i.json AS item_json
        FROM pages p
        LEFT JOIN page_items pi ON pi.page_id = p.id AND pi.position >= ?3 AND pi.position < ?4
        LEFT JOIN items i ON i.id = pi.item_id
        WHERE p.collection_id = (SELECT id FROM collections WHERE key = ?1) AND p.idx = ?2
        ORDER BY pi.position
        """

    /// The items of a list in list order, each once: a row is skipped when
    /// the same item stands earlier in the list.
    static let listedItemsSQL = """
        SELECT i.key, i.json FROM pages p
        JOIN page_items pi ON pi.page_id = p.id
        JOIN items i ON i.id = pi.item_id
        WHERE p.collection_id = ?1 AND NOT EXISTS (
            SELECT 1 FROM page_items pi2 JOIN pages p2 ON p2.id = pi2.page_id
            WHERE pi2.item_id = pi.item_id AND p2.collection_id = ?1
                AND (p2.idx < p.idx OR (p2.idx = p.idx AND pi2.position < pi.position)))
        ORDER BY p.idx, pi.position
        """

    /// The items of a page, read through a cursor: its row is reused from item to item, not copied.
    static func items(ofPage pageID: Int64, count: Int = 0, in db: Database) throws -> [RawItem] {
        var edited: Set<ItemKey> = []
        return try items(ofPage: pageID, count: count, editedKeys: &edited, in: db)
    }

    /// The items of a page, and the keys of those edited locally.
    static func items(
        ofPage pageID: Int64, count: Int = 0, editedKeys: inout Set<ItemKey>, in db: Database
    ) throws -> [RawItem] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: pageItemsSQL), arguments: [pageID])
        var items: [RawItem] = []
        items.reserveCapacity(count)
        while let row = try rows.next() {
            let item = rawItem(row)
            if row[2] as Bool { editedKeys.insert(item.key) }
            items.append(item)
        }
        return items
    }

    static func forEachListedItem(listID: Int64, in db: Database, _ body: (RawItem) throws -> Void) throws {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: listedItemsSQL), arguments: [listID])
        while let row = try rows.next() { try body(rawItem(row)) }
    }

    static func rawItem(_ row: Row) -> RawItem {
        RawItem(key: row[0], json: row[1])
    }

    static func pageInfo(_ row: Row) -> PageInfo {
        let verifiedAt = row["verified_at"] as Double?
        let unverifiedBefore = row["unverified_before"] as Double?
        return PageInfo(
            index: row["idx"],
            generation: row["generation"],
            token: (row["token"] as String?).map(PageToken.init(rawValue:)),
            nextToken: (row["next_token"] as String?).map(PageToken.init(rawValue:)),
            validators: PageValidators(etag: row["etag"], lastModified: row["last_modified"]),
            fetchedAt: Date(storedValue: row["fetched_at"]),
            itemCount: row["item_count"],
            isSuperseded: (row["generation"] as Int) < (row["current_generation"] as Int),
            verifiedAt: Date(storedValue: verifiedAt),
            digest: row["digest"],
            lifetime: row["lifetime"],
            requiresRevalidation: row["no_cache"],
            staleWhileRevalidate: row["stale_while_revalidate"],
            staleIfError: row["stale_if_error"],
            vary: (row["vary"] as String?).map { $0.split(separator: ",").map(String.init) } ?? [],
            varyKey: row["vary_key"],
            isUnverified: unverifiedBefore.map { before in verifiedAt.map { $0 < before } ?? true } ?? false)
    }

    static func pageInfos(key: String, in db: Database) throws -> [PageInfo] {
        try Row.fetchAll(db, sql: pageRowSQL + " ORDER BY p.idx", arguments: [key]).map(pageInfo)
    }

    /// Writes the row of a page that lists `itemCount` distinct items, and returns its id.
    static func upsertPageRow(
        _ page: Page<RawItem>, index: Int, itemCount: Int, generation: Int, listID: Int64, digest: String,
        now: Date, in db: Database
    ) throws -> Int64 {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO pages (collection_id, idx, generation, token, next_token, etag, last_modified,
                    fetched_at, item_count, verified_at, digest, lifetime, no_cache, stale_while_revalidate,
                    stale_if_error, vary, vary_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (collection_id, idx) DO UPDATE SET
                    generation = excluded.generation, token = excluded.token,
                    next_token = excluded.next_token, etag = excluded.etag,
                    last_modified = excluded.last_modified, fetched_at = excluded.fetched_at,
                    item_count = excluded.item_count, verified_at = excluded.verified_at,
                    digest = excluded.digest, lifetime = excluded.lifetime, no_cache = excluded.no_cache,
                    stale_while_revalidate = excluded.stale_while_revalidate,
                    stale_if_error = excluded.stale_if_error, vary = excluded.vary, vary_key = excluded.vary_key
                RETURNING id
                """)
        let caching = page.caching
        let arguments: StatementArguments = [
            listID, index, generation, page.token?.rawValue, page.nextToken?.rawValue,
            page.validators.etag, page.validators.lastModified, now.storedValue, itemCount,
            now.storedValue, digest, caching.lifetime(now: now), caching.cacheControl.noCache,
            caching.cacheControl.staleWhileRevalidate, caching.cacheControl.staleIfError,
            caching.vary.isEmpty ? nil : caching.vary.joined(separator: ","), caching.varyKey,
        ]
        guard let id = try Int64.fetchOne(statement, arguments: arguments) else {
            fatalError("INSERT … RETURNING returned no row")
        }
        return id
    }

    /// Makes the items of `itemIDs` the page's members, in order; membership rows are only rewritten when they change.
    static func replaceMembership(of pageID: Int64, with itemIDs: [Int64], in db: Database) throws {
        let current = try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT item_id FROM page_items WHERE page_id = ? ORDER BY position"),
            arguments: [pageID])
        // A page fetched again with the same items (the common case of a refresh) keeps its rows.
        guard current != itemIDs else { return }
        try db.cachedStatement(sql: "DELETE FROM page_items WHERE page_id = ?").execute(arguments: [pageID])
        var position = 0
        for chunk in itemIDs.chunks(of: membershipRowsPerInsert) {
            let run = try BoundStatement(db.cachedStatement(sql: membershipInsertSQL(chunk.count)))
            var parameter: Int32 = 1
            for itemID in chunk {
                try run.bind(pageID, at: parameter)
                try run.bind(Int64(position), at: parameter + 1)
                try run.bind(itemID, at: parameter + 2)
                parameter += 3
                position += 1
            }
            try run.run()
        }
    }

    /// The ids in order, each once, at its first position.
    static func uniqued(_ ids: [Int64]) -> [Int64] {
        var seen: Set<Int64> = []
        seen.reserveCapacity(ids.count)
        return ids.filter { seen.insert($0).inserted }
    }

    /// How many of `itemIDs` a page before `index` of the list's current generation lists.
    static func countListed(_ itemIDs: [Int64], before index: Int, in list: ListRow, db: Database) throws
        -> Int
    {
        var count = 0
        for chunk in itemIDs.chunks(of: itemsPerLookup) {
            let statement = try db.cachedStatement(sql: listedIDsCountSQL(chunk.count))
            var arguments: [(any DatabaseValueConvertible)?] = [list.id, list.generation, index]
            arguments.reserveCapacity(chunk.count + 3)
            for id in chunk { arguments.append(id) }
            count += try Int.fetchOne(statement, arguments: StatementArguments(arguments)) ?? 0
        }
        return count
    }

    /// How many of some item row ids stand on pages of a list's generation before an index.
    ///
    /// From each item to its pages through `page_items_by_item`, then each page
    /// by primary key (`CROSS JOIN` fixes that order): a cost per id, whatever
    /// the number of pages.
    static let listedIDsCountSQL = SQLForCount(usual: itemsPerLookup) { ids in
        """
        SELECT count(DISTINCT pi.item_id) FROM page_items pi CROSS JOIN pages p ON p.id = pi.page_id
        WHERE p.collection_id = ? AND p.generation = ? AND p.idx < ? AND pi.item_id IN (
        """ + repeatElement("?", count: ids).joined(separator: ", ") + ")"
    }

    /// Rows per multi-row `INSERT` of membership: 3 parameters each, far below SQLite's limit.
    private static let membershipRowsPerInsert = 100

    /// Inserts rows of a page's membership (page, position, item each).
    private static let membershipInsertSQL = SQLForCount(usual: membershipRowsPerInsert) { rows in
        "INSERT INTO page_items (page_id, position, item_id) VALUES "
            + repeatElement("(?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// Keys looked up per `SELECT … IN (…)` when a page's items are written.
    static let itemsPerLookup = 100

    /// The row ids of a type's items among some keys (`?1` the type, then the keys).
    private static let itemIDsSQL = SQLForCount(usual: itemsPerLookup) { keys in
        "SELECT id FROM items WHERE type = ? AND key IN (" + repeatElement("?", count: keys).joined(separator: ", ")
            + ")"
    }

    /// The row ids of the stored items of a type among `keys`; keys with no row are left out.
    static func itemIDs(of keys: [ItemKey], type: String, in db: Database) throws -> [Int64] {
        var ids: [Int64] = []
        for chunk in keys.chunks(of: itemsPerLookup) {
            let statement = try db.cachedStatement(sql: itemIDsSQL(chunk.count))
            var arguments: [(any DatabaseValueConvertible)?] = [type]
            arguments.reserveCapacity(chunk.count + 1)
            for key in chunk { arguments.append(key) }
            ids += try Int64.fetchAll(statement, arguments: StatementArguments(arguments))
        }
        return ids
    }

    /// Writes a page's items and returns their row ids, in order.
    ///
    /// One query per 100 items finds the stored rows; an item whose JSON is
    /// unchanged is not written at all, a changed one is updated, and the new
    /// ones are inserted by one statement per 100 (an id twice on the page is
    /// inserted once, with the later JSON, as one upsert after another would leave it).
    ///
    /// An item changed locally and not yet acknowledged (``Overlay``) keeps its local JSON:
    /// the fetched JSON becomes its server copy, with the pending writes applied over it.
    /// Items deleted locally are in `deleted`, for the page to leave out.
    static func upsertItems(
        _ items: [RawItem], type: String, now: Date, in db: Database, deleted: inout Set<Int64>
    ) throws -> [Int64] {
        var new: Set<Int64> = []
        var written: [Data]?
        return try upsertItems(items, type: type, now: now, in: db, deleted: &deleted, new: &new, written: &written)
    }

    /// The stored rows of some items of a type, by key: what a page's write compares its items with.
    struct StoredItems {
        var rows: [ItemKey: (id: Int64, json: Data)] = [:]
        /// The rows changed locally and not yet confirmed by a fetched page.
        var edited: Set<Int64> = []
        /// The rows with pending writes laid over them.
        var overlaid: Set<Int64> = []

        /// Looks the rows of `keys` up, one query per 100 keys.
        init(of keys: some Collection<ItemKey>, type: String, in db: Database) throws {
            rows.reserveCapacity(keys.count)
            for chunk in Array(keys).chunks(of: itemsPerLookup) {
                let run = try BoundStatement(db.cachedStatement(sql: storedItemsSQL(chunk.count)))
                try run.bind(type, at: 1)
                for (offset, key) in chunk.enumerated() { try run.bind(key, at: Int32(offset + 2)) }
                while try run.step() {
                    // A key of another storage class is none of these keys.
                    guard let key = run.itemKey(at: 0) else { continue }
                    let id = run.int64(at: 1)
                    rows[key] = (id, run.data(at: 2))
                    if run.int64(at: 3) != 0 { edited.insert(id) }
                    if run.int64(at: 4) != Int64(Overlay.none.rawValue) { overlaid.insert(id) }
                }
            }
        }
    }

    /// Writes a page's items as ``upsertItems(_:type:now:in:deleted:)`` does; the row ids of the
    /// items this write inserted (no page listed them before it) are added to `new`. `looked`, when
    /// given, is the lookup of the items' rows made earlier in the same transaction. `written`, when
    /// given, gets the JSON of each row this write inserted or rewrote, in order; it is made `nil`
    /// when a pending local change was laid over a fetched item (its row then holds other JSON).
    static func upsertItems(
        _ items: [RawItem], type: String, now: Date, in db: Database, deleted: inout Set<Int64>,
        new: inout Set<Int64>, looked: StoredItems? = nil, written: inout [Data]?
    ) throws -> [Int64] {
        let lookup = try looked ?? StoredItems(of: items.map(\.key), type: type, in: db)
        var stored = lookup.rows
        let (edited, overlaid) = (lookup.edited, lookup.overlaid)
        // A pending local change is never hidden by the server's copy: the copy goes under it.
        if !overlaid.isEmpty {
            written = nil
            for item in items {
                guard let row = stored[item.key], overlaid.contains(row.id) else { continue }
                let overlay = try reapplyWrites(toServerCopy: item.json, of: row.id, now: now, in: db)
                if overlay.isDeleted { deleted.insert(row.id) }
                stored[item.key] = (row.id, overlay.json)
            }
        }
        // A fetched page confirms its items: a local edit it brings back, or overrides, is no longer one.
        for id in edited {
            try db.cachedStatement(sql: "UPDATE items SET edited_locally = 0 WHERE id = ?").execute(arguments: [id])
        }
        let update = try db.cachedStatement(
            sql: "UPDATE items SET json = ?, updated_at = ?, edited_locally = 0 WHERE id = ?")
        var unstored: [ItemKey: Data] = [:]
        var unstoredOrder: [ItemKey] = []
        // The rows rewritten, each with the JSON it holds at the end.
        var rewritten: [Int64: Data] = [:]
        var rewrittenOrder: [Int64] = []
        for item in items {
            if let row = stored[item.key] {
                if !overlaid.contains(row.id), row.json != item.json {
                    try update.execute(arguments: [item.json, now.storedValue, row.id])
                    if rewritten.updateValue(item.json, forKey: row.id) == nil { rewrittenOrder.append(row.id) }
                    // The same id twice on a page: the later JSON wins, as one upsert after another.
                    stored[item.key] = (row.id, item.json)
                }
            } else if unstored.updateValue(item.json, forKey: item.key) == nil {
                unstoredOrder.append(item.key)
            }
        }
        if written != nil { written?.append(contentsOf: rewrittenOrder.compactMap { rewritten[$0] }) }
        for chunk in unstoredOrder.chunks(of: itemsPerInsert) {
            let run = try BoundStatement(db.cachedStatement(sql: insertItemsSQL(chunk.count)))
            var parameter: Int32 = 1
            for key in chunk {
                try run.bind(type, at: parameter)
                try run.bind(key, at: parameter + 1)
                try run.bind(blob: unstored[key] ?? Data(), at: parameter + 2)
                try run.bind(now.storedValue, at: parameter + 3)
                parameter += 4
            }
            while try run.step() {
                guard let key = run.itemKey(at: 0) else { continue }
                let id = run.int64(at: 1)
                let json = unstored[key] ?? Data()
                stored[key] = (id, json)
                new.insert(id)
                written?.append(json)
            }
        }
        return try items.map { item in
            guard let id = stored[item.key]?.id else {
                throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "an inserted item returned no row id")
            }
            return id
        }
    }

    /// Rows per multi-row `INSERT` of new items: 4 parameters each, far below SQLite's limit.
    static let itemsPerInsert = 100

    /// The stored rows of a type's items among some keys (`?1` the type, then the keys).
    static let storedItemsSQL = SQLForCount(usual: itemsPerLookup) { keys in
        "SELECT key, id, json, edited_locally, overlaid FROM items WHERE type = ? AND key IN ("
            + repeatElement("?", count: keys).joined(separator: ", ") + ")"
    }

    /// Inserts new items (type, key, JSON, time each) and returns the key and row id of each.
    static let insertItemsSQL = SQLForCount(usual: itemsPerInsert) { rows in
        "INSERT INTO items (type, key, json, updated_at) VALUES "
            + repeatElement("(?, ?, ?, ?)", count: rows).joined(separator: ", ") + " RETURNING key, id"
    }

    /// Inserts or updates one item; an unchanged item is not rewritten.
    static func upsertItem(_ item: RawItem, type: String, now: Date, in db: Database) throws {
        guard try !updateItemIfChanged(item, type: type, now: now, in: db) else { return }
        // Unchanged (nothing to do) or new.
        try db.cachedStatement(
            sql:
                "INSERT INTO items (type, key, json, updated_at, edited_locally) VALUES (?, ?, ?, ?, 1) ON CONFLICT (type, key) DO NOTHING"
        ).execute(arguments: [type, item.key, item.json, now.storedValue])
    }

    /// Rewrites a stored item whose JSON differs from `item`'s; `false` when it is missing or unchanged.
    ///
    /// One single-row `UPDATE`, which SQLite runs without a statement journal,
    /// where an `INSERT … ON CONFLICT DO UPDATE` opens one (and allocates it) every time.
    static func updateItemIfChanged(_ item: RawItem, type: String, now: Date, in db: Database) throws -> Bool {
        try db.cachedStatement(
            sql:
                "UPDATE items SET json = ?, updated_at = ?, edited_locally = 1 WHERE type = ? AND key = ? AND json IS NOT ?"
        ).execute(arguments: [item.json, now.storedValue, type, item.key, item.json])
        return db.changesCount > 0
    }
}

extension Array {
    /// The array cut in consecutive slices of at most `size` elements.
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

/// Lets a non-Sendable closure cross into GRDB's `@Sendable` read closure.
///
/// Safe because the read runs synchronously on the caller's behalf and
/// returns before the closure's caller does; the closure is never shared.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
