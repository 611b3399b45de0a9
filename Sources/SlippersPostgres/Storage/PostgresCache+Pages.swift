import Foundation
import Logging
import PostgresNIO
import Slippers
import SlippersStorage

extension PostgresCache {
    /// Saves a fetched page, its items and the list's resume point in one transaction,
    /// by the rules of `SQLiteCache.savePage(_:at:in:now:)`.
    ///
    /// One statement, one round trip: the function `save_page` of our schema. The list's
    /// row is locked for the transaction (its upsert): saves of one list by several workers
    /// follow one another, so the committed prefix stays exact.
    ///
    /// - throws: `CacheError.pageOutOfOrder(list:index:)` when page `index - 1`
    ///   is not cached in the current generation, `CacheError.itemTypeMismatch(list:stored:requested:)`,
    ///   or a ``PostgresCacheError``.
    @discardableResult
    public func savePage(_ page: Page<RawItem>, at index: Int, in list: ListDescriptor) async throws
        -> ListHead
    {
        guard let head = try await save(page, at: index, in: list, holdingNothingNew: false) else {
            throw CacheError.listNotFound(key: list.key)
        }
        return head
    }

    /// Saves fetched pages that follow one another, the first at `index`, each as
    /// ``savePage(_:at:in:)`` does, in one transaction, up to the first that brings nothing new:
    /// a page after the list's first, with items and a next token, every item of which a page
    /// before it lists. That page and the pages after it are not written. Each page is one call
    /// of `save_page`, which checks and saves it; a single page is that call alone, its own
    /// transaction.
    ///
    /// - returns: The list's head after each page written, in order.
    /// - throws: As ``savePage(_:at:in:)``; when it throws, none of the pages is written.
    public func savePagesUnlessNothingNew(_ pages: [Page<RawItem>], at index: Int, in list: ListDescriptor)
        async throws -> [ListHead]
    {
        guard let first = pages.first else { return [] }
        guard pages.count > 1 else {
            return try await save(first, at: index, in: list, holdingNothingNew: first.nextToken != nil).map { [$0] }
                ?? []
        }
        guard index >= 0 else { throw CacheError.pageOutOfOrder(list: list.key, index: index) }
        let (logger, fingerprintKey, now) = (self.logger, headerFingerprintKey, Date())
        return try await mappingErrors {
            try await Self.mappingSaveErrors(of: list, at: index) {
                try await client.withTransaction { connection in
                    var heads: [ListHead] = []
                    for (offset, page) in pages.enumerated() {
                        guard
                            let head = try await Self.writePage(
                                page.keyingHeaderDigest(with: fingerprintKey), at: index + offset, in: list,
                                holdingNothingNew: page.nextToken != nil, now: now, connection, logger: logger)
                        else { break }
                        heads.append(head)
                    }
                    return heads
                }
            }
        }
    }

    private func save(
        _ page: Page<RawItem>, at index: Int, in list: ListDescriptor, holdingNothingNew: Bool
    )
        async throws -> ListHead?
    {
        guard index >= 0 else { throw CacheError.pageOutOfOrder(list: list.key, index: index) }
        let logger = self.logger
        return try await mappingErrors {
            try await Self.mappingSaveErrors(of: list, at: index) {
                try await client.withConnection { connection in
                    try await Self.writePage(
                        page.keyingHeaderDigest(with: self.headerFingerprintKey), at: index, in: list,
                        holdingNothingNew: holdingNothingNew, now: Date(), connection, logger: logger)
                }
            }
        }
    }

    /// What `body` returns, with the errors `save_page` raises with our SQLSTATEs thrown as the cache's errors.
    static func mappingSaveErrors<Result>(
        of list: ListDescriptor, at index: Int, _ body: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await body()
        } catch let error as PSQLError {
            switch error.serverInfo?[.sqlState] {
            case "SLP01": throw CacheError.pageOutOfOrder(list: list.key, index: index)
            case "SLP02":
                throw CacheError.itemTypeMismatch(
                    list: list.key, stored: error.serverInfo?[.detail] ?? "",
                    requested: list.itemType)
            default: throw error
            }
        }
    }

    /// Writes a page with one call of `save_page` (migration 0014), prepared once per connection:
    /// the list's row (made and locked), where the list stands, the items in one upsert, the
    /// page with its membership in one more, the ids earlier pages list, and the list's new
    /// state with its head, in one statement and its one transaction; `nil`, with nothing written,
    /// for a page held because it brings nothing new.
    static func writePage(
        _ page: Page<RawItem>, at index: Int, in list: ListDescriptor, holdingNothingNew: Bool,
        now: Date, _ connection: PostgresConnection, logger: Logger
    ) async throws -> ListHead? {
        // Each id once, at its first position, with the later JSON, as one upsert after another would leave it.
        var keys: [String] = []
        var latest: [String: Data] = [:]
        for item in page.items {
            let key = item.key.postgresText
            if latest.updateValue(item.json, forKey: key) == nil { keys.append(key) }
        }
        let caching = page.caching
        let statement = SavePageStatement(
            key: list.key, itemType: list.itemType, style: list.style,
            now: now.timeIntervalSince1970, index: index, keys: keys,
            jsons: keys.map { ByteBuffer(bytes: latest[$0] ?? Data()) }, token: page.token?.rawValue,
            nextToken: page.nextToken?.rawValue, total: page.total, etag: page.validators.etag,
            lastModified: page.validators.lastModified, digest: PageDigest.of(page.items),
            lifetime: caching.lifetime(now: now), noCache: caching.cacheControl.noCache,
            staleWhileRevalidate: caching.cacheControl.staleWhileRevalidate,
            staleIfError: caching.cacheControl.staleIfError,
            vary: caching.vary.isEmpty ? nil : caching.vary.joined(separator: ","),
            varyKey: caching.varyKey, holdsNothingNew: holdingNothingNew)
        var head: PostgresRandomAccessRow?
        for try await row in try await connection.execute(statement, logger: logger) where head == nil { head = row }
        guard let head else { throw CacheError.listNotFound(key: list.key) }
        if try head["held"].decode(Bool.self) { return nil }
        let currentPageCount = (try head["last_current_index"].decode(Int?.self)).map { $0 + 1 } ?? 0
        var saved = try PostgresRows.listHead(head, currentPageCount: currentPageCount)
        saved.repeatedItemCount = page.items.count - keys.count + (try head["listed"].decode(Int.self))
        return saved
    }

    /// A list's head: its row and where its current generation ends.
    static func listHead(_ key: String, _ connection: PostgresConnection, _ logger: Logger) async throws
        -> ListHead?
    {
        guard
            let row = try await PostgresRows.first(
                """
                SELECT c.*, (SELECT max(idx) FROM pages WHERE collection_id = c.id) AS last_index,
                    (SELECT max(idx) FROM pages WHERE collection_id = c.id AND generation = c.generation)
                        AS last_current_index
                FROM collections c WHERE c.key = \(key)
                """, on: connection, logger: logger)
        else { return nil }
        let lastCurrent = try row["last_current_index"].decode(Int?.self)
        return try PostgresRows.listHead(row, currentPageCount: lastCurrent.map { $0 + 1 } ?? 0)
    }

    /// The tokens of the pages of a generation before `index`.
    public func walkedTokens(in key: String, before index: Int, generation: Int) async throws -> Set<PageToken> {
        try await mappingErrors {
            var walked: Set<PageToken> = []
            let rows = try await client.rows(
                """
                SELECT p.token FROM pages p JOIN collections c ON c.id = p.collection_id
                WHERE c.key = \(key) AND p.generation = \(generation) AND p.idx < \(index)
                """)
            for row in rows {
                let token = try row["token"].decode(String?.self)
                if let token { walked.insert(PageToken(rawValue: token)) }
            }
            return walked
        }
    }

    /// How many of `keys` no page of the current generation before `index` lists.
    ///
    /// One index probe a key (memberships by list and item, migration 0004), whatever the
    /// list's length and however many other lists share its items.
    public func unlistedCount(of keys: Set<ItemKey>, before index: Int, in key: String) async throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try await mappingErrors {
            let texts = keys.map(\.postgresText)
            let rows = try await client.rows(
                """
                SELECT count(*) FILTER (WHERE EXISTS (
                        SELECT 1 FROM page_items pi
                        WHERE pi.collection_id = c.id AND pi.item_id = i.id AND (
                            SELECT p.generation = c.generation AND p.idx < \(index) FROM pages p
                            WHERE p.id = pi.page_id))) AS listed
                FROM collections c JOIN items i ON i.type = c.item_type AND i.key = ANY(\(texts))
                WHERE c.key = \(key)
                """)
            var listed = 0
            for row in rows { listed = try row["listed"].decode(Int.self) }
            return keys.count - listed
        }
    }

    /// Nothing to do: a PostgreSQL cache keeps no budget.
    public func syncWillStart(_ key: String) async {}

    /// Nothing to do: a PostgreSQL cache keeps no budget.
    public func syncDidEnd(_ key: String) async {}

    /// Logs the retry at `info`.
    public func pageWillBeRetried(at index: Int, in key: String, error: any Error, wait: Duration) {
        logger.info(
            "retrying page",
            metadata: ["list": "\(key)", "page": "\(index)", "delay": "\(wait)", "error": "\(error)"])
    }
}
