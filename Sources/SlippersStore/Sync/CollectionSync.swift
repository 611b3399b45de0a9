import Foundation
import Slippers

/// Pages a source into the store, page after page, resuming where the last run stopped.
///
/// Each fetched page is saved in one transaction with the collection's resume
/// token, so a run killed at any moment loses at most the page in flight, and
/// the next run continues from the last committed page instead of page 1.
///
/// Every walk ends. It stops with an error, saving nothing of the pages that
/// caused it, when a next token is one the walk has met before (a cycle of any
/// length, across runs too), when a page lists the same ids as the page before
/// it (a server that ignores the page parameter), and when ``Limits/stallLimit``
/// pages in a row bring no item the walk has not met. A rerun of a list that
/// stopped so adds nothing.
///
/// For example:
///
/// ```swift
/// let sync = CollectionSync(store: store, source: source, collection: posts)
/// let outcome = try await sync.run { progress in print(progress.itemsFetched) }
/// ```
public struct CollectionSync<Source: PageSource>: Sendable where Source.Item == RawItem {
    /// What a run has done so far.
    public struct Progress: Hashable, Sendable {
        /// The index of the first page this run fetched (0 unless it resumed).
        public var startIndex: Int
        /// The number of pages this run fetched and saved.
        public var pagesFetched = 0
        /// The number of distinct items on the pages this run fetched and saved: an id already listed counts once.
        public var itemsFetched = 0
        /// The number of items this run fetched whose id was already listed: twice on one page,
        /// or on an earlier page (an offset list that shifted). Each id is stored once.
        public var repeatedItems = 0
        /// The number of pages the collection holds in its current generation.
        public var pagesCached = 0
        /// The number of items in the whole list, when the source said.
        public var total: Int?
        /// Whether the last page has been fetched.
        public var endReached = false
        /// How many times a failing page was fetched again under the run's ``RetryBudget``.
        public var pageRetries = 0

        /// Whether this run continued a list an earlier run had started.
        public var resumed: Bool { startIndex > 0 }
    }

    /// What bounds a run.
    public struct Limits: Hashable, Sendable {
        /// The most pages to fetch in this run; no limit when `nil`.
        public var maxPages: Int?
        /// The most items to fetch in this run (the page that reaches it is saved whole); no limit when `nil`.
        public var maxItems: Int?
        /// How many pages in a row may bring no new item before the walk stops; 3 by default.
        public var stallLimit: Int

        /// Creates limits.
        public init(maxPages: Int? = nil, maxItems: Int? = nil, stallLimit: Int = 3) {
            self.maxPages = maxPages
            self.maxItems = maxItems
            self.stallLimit = max(1, stallLimit)
        }
    }

    /// The store the pages go to.
    public let store: CacheStore
    /// The source of the pages.
    public let source: Source
    /// The collection the pages are filed under.
    public let collection: CollectionDescriptor
    /// Whether pages whose response said `Cache-Control: no-store` are saved all the same;
    /// `false` unless set, and a run stops before such a page with ``NoStorePageError``.
    public var keepsNoStorePages = false

    /// How many times a run follows another process that started the list again before it gives up.
    static var maxRestarts: Int { 100 }

    /// Creates a sync of `source` into `collection` of `store`.
    public init(store: CacheStore, source: Source, collection: CollectionDescriptor) {
        self.store = store
        self.source = source
        self.collection = collection
    }

    /// Fetches and saves pages until the end of the list, `maxPages`, or an error.
    ///
    /// - parameter maxPages: The most pages to fetch in this run; no limit when `nil`.
    /// - parameter refresh: Start again at the first page (a new generation) instead of resuming.
    /// - parameter onPage: Called after each saved page.
    /// - returns: What the run did.
    /// - throws: The source's error, ``StoreError/tokenDidNotAdvance(collection:token:)``,
    ///   ``NoStorePageError``, a store error, or `CancellationError`. Pages saved before the error stay saved.
    @discardableResult
    public func run(
        maxPages: Int? = nil,
        refresh: Bool = false,
        onPage: (Progress) -> Void = { _ in }
    ) async throws -> Progress {
        try await run(limits: Limits(maxPages: maxPages), refresh: refresh, onPage: onPage)
    }

    /// Fetches and saves pages until the end of the list, a limit, or an error.
    ///
    /// A page that fails with a transient error (see ``TransientError``) is
    /// fetched again while `retryBudget` lasts, which starts afresh for every
    /// page: a long run through a flaky network keeps going as long as the list
    /// makes progress. A page that fails is never saved.
    ///
    /// - parameter limits: The most pages and items to fetch, and how many pages without a new item end the walk.
    /// - parameter refresh: Start again at the first page (a new generation) instead of resuming.
    /// - parameter retryBudget: How long a failing page is tried again; ``RetryBudget/none`` to fail at once.
    /// - parameter onPage: Called after each saved page.
    /// - returns: What the run did.
    /// - throws: The source's error, ``StoreError/tokenDidNotAdvance(collection:token:)``,
    ///   ``StoreError/pageRepeated(collection:index:)``, ``StoreError/listStalled(collection:pages:)``,
    ///   a store error, or `CancellationError`. Pages saved before the error stay saved.
    @discardableResult
    public func run(
        limits: Limits,
        refresh: Bool = false,
        retryBudget: RetryBudget = .none,
        onPage: (Progress) -> Void = { _ in }
    ) async throws -> Progress {
        let cached = try store.collection(collection.key)
        var index = 0
        var token: PageToken?
        var walked: Set<PageToken> = []
        if !refresh, let cached, cached.generation > 0 {
            guard !cached.endReached else {
                return Progress(
                    startIndex: cached.currentPageCount, pagesCached: cached.currentPageCount,
                    total: cached.total, endReached: true)
            }
            index = cached.nextPageIndex
            token = cached.resumeToken
            walked = try store.walkedTokens(in: collection.key)
        }
        if let token { walked.insert(token) }
        var progress = Progress(startIndex: index, pagesCached: index, total: cached?.total)
        // Pages that brought no new item wait here; they are saved once a later page brings one.
        var held: [Page<RawItem>] = []
        var heldKeys: Set<ItemKey> = []
        var previousKeys: [ItemKey] = []
        var restarts = 0
        walk: while limits.maxPages.map({ progress.pagesFetched + held.count < $0 }) ?? true,
            limits.maxItems.map({ progress.itemsFetched < $0 }) ?? true
        {
            try Task.checkCancellation()
            let request = PageRequest(token: token)
            let result = try await retryBudget.run(
                retries: &progress.pageRetries, onRetry: { store.logPageRetry(at: index + held.count, $0, $1) },
                { try await source.fetch(request) })
            // A request without validators cannot be answered "not modified"; a source that does has nothing new.
            guard var page = result.page else { break }
            try Task.checkCancellation()
            let pageIndex = index + held.count
            if page.items.isEmpty && pageIndex > 0 { page.nextToken = nil }
            if let next = page.nextToken, !walked.insert(next).inserted {
                throw StoreError.tokenDidNotAdvance(collection: collection.key, token: next.rawValue)
            }
            let keys = page.items.map(\.key)
            if !keys.isEmpty, keys == previousKeys {
                throw StoreError.pageRepeated(collection: collection.key, index: pageIndex)
            }
            previousKeys = keys
            if page.caching.cacheControl.noStore, !keepsNoStorePages {
                throw NoStorePageError(collection: collection.key, index: pageIndex)
            }
            let pageKeys = Set(keys)
            if pageIndex > 0, !page.isLast, !pageKeys.isEmpty,
                try store.unlistedCount(of: pageKeys.subtracting(heldKeys), before: index, in: collection.key) == 0
            {
                held.append(page)
                heldKeys.formUnion(pageKeys)
                guard held.count < limits.stallLimit else {
                    throw StoreError.listStalled(collection: collection.key, pages: held.count)
                }
                token = page.nextToken
                continue
            }
            for saved in held + [page] {
                let head: CollectionHead
                do {
                    head = try store.savePage(saved, at: index, in: collection)
                } catch StoreError.pageOutOfOrder where restarts < Self.maxRestarts {
                    // Another process started the list again meanwhile: go on from where the cache now stands.
                    restarts += 1
                    (held, heldKeys, previousKeys) = ([], [], [])
                    guard let current = try store.collection(collection.key), !current.endReached else {
                        progress.endReached = true
                        break walk
                    }
                    (index, token) = (current.nextPageIndex, current.resumeToken)
                    walked = try store.walkedTokens(in: collection.key)
                    if let token { walked.insert(token) }
                    continue walk
                }
                index += 1
                progress.pagesFetched += 1
                progress.itemsFetched += saved.items.count - head.repeatedItemCount
                progress.repeatedItems += head.repeatedItemCount
                progress.pagesCached = head.currentPageCount
                progress.total = head.total
                progress.endReached = head.endReached
                onPage(progress)
            }
            (held, heldKeys) = ([], [])
            guard let next = page.nextToken else { break }
            token = next
        }
        return progress
    }
}
