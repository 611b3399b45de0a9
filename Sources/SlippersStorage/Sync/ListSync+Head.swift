import Slippers

extension ListSync {
    /// What reading a list's head did: see ``ListSync/refreshHead(maxPages:retryBudget:)``.
    public struct HeadRefresh: Hashable, Sendable {
        /// The pages fetched (one request each).
        public var pagesFetched = 0
        /// The items no cached page listed: they were put at the top of the list.
        public var added = 0
        /// The items cached already whose JSON changed: they were updated.
        public var updated = 0
        /// Whether the read stopped at a page whose items are all cached unchanged: the cache's list
        /// continues from there. `false` when the list ended first, or `maxPages` did.
        var metCachedItems = false
        /// The number of items in the whole list, as the last page fetched said, if it did.
        public var total: Int?
        /// The number of distinct items the cached list holds after the merge.
        public var itemsCached = 0

        /// Whether the list announces a total the cache no longer holds: items were removed from it
        /// (or added out of sight), and only a walk of the whole list finds which.
        public var totalDiffers: Bool { total.map { $0 != itemsCached } ?? false }
    }

    /// Brings a complete list whose new items come first up to date at the cost of the change.
    ///
    /// Reads from the first page, one page after another, until a page whose
    /// items the cache holds unchanged, then merges what it read in one
    /// transaction (``SyncStorage/mergeHead(_:total:in:)``): the new items go at
    /// the top of the list, in the server's order, and changed items are
    /// updated. One new item on a list of thousands costs two requests. A run
    /// killed before the merge changes nothing.
    ///
    /// Removed items stay: when ``HeadRefresh/totalDiffers``, walk the list
    /// again (`revalidate()` on an SQLite file) to find them.
    ///
    /// For example:
    ///
    /// ```swift
    /// let head = try await sync.refreshHead()
    /// print("\(head.added) new, \(head.updated) changed in \(head.pagesFetched) requests")
    /// ```
    ///
    /// - parameter maxPages: The most pages to read; no limit when `nil`.
    /// - parameter retryBudget: How long a failing page is tried again; `RetryBudget.none` to fail at once.
    /// - returns: What the read found and merged.
    /// - throws: ``CacheError/listNotFound(key:)`` when the list has no cached first page, the
    ///   source's error, ``CacheError/tokenDidNotAdvance(list:token:)``, a cache error, or
    ///   `CancellationError`. Nothing is merged after an error.
    @discardableResult
    public func refreshHead(maxPages: Int? = nil, retryBudget: RetryBudget = .none) async throws -> HeadRefresh {
        try await tracingList(
            "refresh_head", counting: { ($0.pagesFetched, $0.added + $0.updated) },
            running: {
                try await readHead(maxPages: maxPages, retryBudget: retryBudget)
            })
    }

    private func readHead(maxPages: Int?, retryBudget: RetryBudget) async throws -> HeadRefresh {
        let key = list.key
        guard try await storage.list(key) != nil else { throw CacheError.listNotFound(key: key) }
        var found = HeadRefresh()
        var items: [RawItem] = []
        var token: PageToken?
        var walked: Set<PageToken> = []
        while maxPages.map({ found.pagesFetched < $0 }) ?? true {
            let fetched = try await fetchPage(token, index: found.pagesFetched, retryBudget: retryBudget)
            found.pagesFetched += 1
            guard let page = fetched.result.page else { break }
            if let total = page.total { found.total = total }
            if !page.items.isEmpty, try await storage.unchangedCount(of: page.items, in: key) == page.items.count {
                found.metCachedItems = true
                break
            }
            items += page.items
            guard let next = page.nextToken, !page.items.isEmpty else { break }
            guard walked.insert(next).inserted else {
                throw CacheError.tokenDidNotAdvance(list: key, token: next.rawValue)
            }
            token = next
        }
        if !items.isEmpty || found.total != nil {
            let merge = try await storage.mergeHead(items, total: found.total, in: list)
            found.added = merge.added
            found.updated = merge.updated
        }
        found.itemsCached = try await storage.list(key)?.itemCount ?? 0
        return found
    }
}
