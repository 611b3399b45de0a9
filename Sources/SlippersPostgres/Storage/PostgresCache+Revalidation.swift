import Foundation
import Logging
import PostgresNIO
import Slippers
import SlippersStorage

/// Revalidating a cached list page by page, by the rules of `SQLiteCache`'s: a page the server
/// confirms (a `304`, or the same items by digest) only records its verification.
extension PostgresCache {
    /// The row of the cached page at `index` of a list, without its items; `nil` when it is not cached.
    ///
    /// - throws: A ``PostgresCacheError``.
    public func pageInfo(at index: Int, in key: String) async throws -> PageInfo? {
        try await mappingErrors {
            try await client.withConnection { [self] connection in
                try await PostgresRows.first(
                    PostgresQuery(
                        unsafeSQL: "SELECT \(PostgresRows.pageColumnsSQL) FROM pages p "
                            + "JOIN collections c ON c.id = p.collection_id WHERE c.key = $1 AND p.idx = $2",
                        binds: try Self.binds(key, index)),
                    on: connection, logger: logger
                ).map(PostgresRows.pageInfo)
            }
        }
    }

    /// Records that a cached page is still current (the server answered `304 Not Modified`), in
    /// one transaction, by the rules of `SQLiteCache.markPageNotModified(at:in:validators:now:)`.
    ///
    /// Only the page row changes: its verification time and validators. No item row is rewritten.
    /// Revalidating page 0 also ends the list's invalidation; a page of an older generation
    /// joins the current one when the page before it is current.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a ``PostgresCacheError``.
    public func markPageNotModified(at index: Int, in key: String, validators: PageValidators) async throws {
        let logger = self.logger
        let now = Date().timeIntervalSince1970
        try await mappingErrors {
            try await client.withTransaction { connection in
                guard
                    let list = try await PostgresRows.first(
                        "SELECT id, generation FROM collections WHERE key = \(key) FOR UPDATE", on: connection,
                        logger: logger)
                else { throw CacheError.listNotFound(key: key) }
                let listID = try list["id"].decode(Int64.self)
                let generation = try list["generation"].decode(Int.self)
                guard
                    let stored = try await PostgresRows.first(
                        "SELECT id, generation, next_token FROM pages WHERE collection_id = \(listID) AND idx = \(index)",
                        on: connection, logger: logger)
                else { return }
                let storedGeneration = try stored["generation"].decode(Int.self)
                var joins = index == 0
                if !joins {
                    joins =
                        try await Self.generation(ofPage: index - 1, in: listID, connection, logger) == generation
                }
                try await connection.query(
                    """
                    UPDATE pages SET fetched_at = \(now), verified_at = \(now),
                        etag = coalesce(\(validators.etag), etag),
                        last_modified = coalesce(\(validators.lastModified), last_modified),
                        generation = \(joins ? generation : storedGeneration)
                    WHERE id = \(try stored["id"].decode(Int64.self))
                    """, logger: logger)
                if joins && storedGeneration != generation {
                    try await Self.moveResumePoint(
                        after: index, nextToken: try stored["next_token"].decode(String?.self),
                        listID: listID, generation: generation, connection, logger)
                }
                if index == 0 {
                    try await connection.query(
                        """
                        UPDATE collections SET invalidated_at = NULL, refreshed_at = \(now)
                        WHERE id = \(listID)
                        """, logger: logger)
                }
            }
        }
        logRevalidation(of: index, in: key, outcome: "not modified")
    }

    /// Saves a fetched page unless it holds the same items as the cached copy, in one transaction,
    /// by the rules of `SQLiteCache.savePageIfChanged(_:at:in:now:)`.
    ///
    /// A page whose items (keys and JSON bytes, by digest) are those of the cached page at `index`,
    /// with the same next token, is unchanged: no item or membership row is written, no new
    /// generation starts, and the resume point stays. Only the page row records the verification
    /// (and the response's validators and caching headers). A page of an older generation that is
    /// unchanged joins the current one. Any other page is saved as ``savePage(_:at:in:)`` saves it,
    /// in the same transaction.
    ///
    /// - returns: The list's head after the save, and whether the page was new, changed or unchanged.
    /// - throws: As ``savePage(_:at:in:)``.
    @discardableResult
    public func savePageIfChanged(_ page: Page<RawItem>, at index: Int, in list: ListDescriptor)
        async throws -> PageSave
    {
        guard index >= 0 else { throw CacheError.pageOutOfOrder(list: list.key, index: index) }
        let logger = self.logger
        let keyed = page.keyingHeaderDigest(with: headerFingerprintKey)
        let save = try await mappingErrors {
            try await Self.mappingSaveErrors(of: list, at: index) {
                try await client.withTransaction { connection in
                    try await Self.writePageIfChanged(keyed, at: index, in: list, now: Date(), connection, logger)
                }
            }
        }
        logRevalidation(of: index, in: list.key, outcome: save.outcome.rawValue)
        return save
    }

    /// Writes a page as ``savePageIfChanged(_:at:in:)`` does, in the transaction `connection` is in.
    private static func writePageIfChanged(
        _ page: Page<RawItem>, at index: Int, in list: ListDescriptor, now: Date,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> PageSave {
        let digest = PageDigest.of(page.items)
        // The list's row is locked, as `save_page` locks it: saves of one list follow one another.
        let stored = try await PostgresRows.first(
            """
            SELECT c.id AS collection_id, c.item_type, c.generation AS current_generation,
                p.id, p.next_token, p.digest
            FROM collections c LEFT JOIN pages p ON p.collection_id = c.id AND p.idx = \(index)
            WHERE c.key = \(list.key) FOR UPDATE OF c
            """, on: connection, logger: logger)
        let pageID = try stored?["id"].decode(Int64?.self)
        var unchanged = false
        if let stored, let pageID, try stored["item_type"].decode(String.self) == list.itemType,
            try stored["next_token"].decode(String?.self) == page.nextToken?.rawValue
        {
            if let storedDigest = try stored["digest"].decode(String?.self), PageDigest.isCurrent(storedDigest) {
                unchanged = storedDigest == digest
            } else {
                // A page whose items were merged in place has no digest, and one saved by an earlier
                // version another: its items are compared.
                unchanged = try await items(ofPage: pageID, connection, logger) == page.items
            }
        }
        guard unchanged, let stored, let pageID else {
            let written = try await writePage(
                page, at: index, in: list, holdingNothingNew: false, now: now, connection, logger: logger)
            guard let head = written else { throw CacheError.listNotFound(key: list.key) }
            return PageSave(head: head, outcome: pageID == nil ? .new : .changed)
        }
        let listID = try stored["collection_id"].decode(Int64.self)
        let current = try stored["current_generation"].decode(Int.self)
        if index > 0, try await generation(ofPage: index - 1, in: listID, connection, logger) != current {
            throw CacheError.pageOutOfOrder(list: list.key, index: index)
        }
        let stamp = now.timeIntervalSince1970
        let caching = page.caching
        try await connection.query(
            """
            UPDATE pages SET generation = \(current), token = \(page.token?.rawValue), fetched_at = \(stamp),
                verified_at = \(stamp), etag = \(page.validators.etag), last_modified = \(page.validators.lastModified),
                digest = \(digest), lifetime = \(caching.lifetime(now: now)),
                no_cache = \(caching.cacheControl.noCache),
                stale_while_revalidate = \(caching.cacheControl.staleWhileRevalidate),
                stale_if_error = \(caching.cacheControl.staleIfError),
                vary = \(caching.vary.isEmpty ? nil : caching.vary.joined(separator: ",")),
                vary_key = \(caching.varyKey)
            WHERE id = \(pageID)
            """, logger: logger)
        try await moveResumePoint(
            after: index, nextToken: page.nextToken?.rawValue, listID: listID, generation: current,
            connection, logger)
        try await connection.query(
            """
            UPDATE collections c SET style = coalesce(\(list.style), c.style),
                total = coalesce(\(page.total), c.total),
                invalidated_at = CASE WHEN \(index) = 0 THEN NULL ELSE c.invalidated_at END,
                refreshed_at = CASE WHEN \(index) = 0 THEN \(stamp) ELSE c.refreshed_at END
            WHERE c.id = \(listID)
            """, logger: logger)
        guard var head = try await listHead(list.key, connection, logger) else {
            throw CacheError.listNotFound(key: list.key)
        }
        // Nothing was written: only the ids the page repeats itself count, as a file counts them.
        head.repeatedItemCount = page.items.count - Set(page.items.map(\.key)).count
        return PageSave(head: head, outcome: .unchanged)
    }

    /// Moves the list's resume point after the current page at `index` when it ends the
    /// current run; a last page (no next token) ends the list, and the pages after it are removed.
    private static func moveResumePoint(
        after index: Int, nextToken: String?, listID: Int64, generation: Int,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        guard let nextToken else {
            try await connection.query(
                "DELETE FROM pages WHERE collection_id = \(listID) AND idx > \(index)", logger: logger)
            try await connection.query(
                "UPDATE collections SET resume_token = NULL, end_reached = TRUE WHERE id = \(listID)",
                logger: logger)
            return
        }
        try await connection.query(
            """
            UPDATE collections c SET resume_token = \(nextToken), end_reached = FALSE
            WHERE c.id = \(listID) AND \(index) >= coalesce(
                (SELECT max(p.idx) FROM pages p WHERE p.collection_id = c.id AND p.generation = \(generation)), -1)
            """, logger: logger)
    }

    /// The generation of the page at `index`, or `nil` when it is not cached.
    private static func generation(
        ofPage index: Int, in listID: Int64, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Int? {
        try await PostgresRows.first(
            "SELECT generation FROM pages WHERE collection_id = \(listID) AND idx = \(index)",
            on: connection, logger: logger
        )?["generation"].decode(Int.self)
    }

    /// The items of a page, in order.
    private static func items(ofPage pageID: Int64, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> [RawItem]
    {
        try await PostgresRows.all(
            """
            SELECT i.key, i.json FROM page_items pi JOIN items i ON i.id = pi.item_id
            WHERE pi.page_id = \(pageID) ORDER BY pi.position
            """, on: connection, logger: logger
        ).map(PostgresRows.item)
    }

    /// Logs at `debug` what revalidating a page found: `not modified` (a `304`), `unchanged`, `changed` or `new`.
    private func logRevalidation(of index: Int, in key: String, outcome: String) {
        logger.debug(
            "page revalidated", metadata: ["list": "\(key)", "page": "\(index)", "outcome": "\(outcome)"])
    }
}
