import Foundation
import Slippers

/// Pages a source into the store, page after page, resuming where the last run stopped.
///
/// Each fetched page is saved in one transaction with the collection's resume
/// token, so a run killed at any moment loses at most the page in flight, and
/// the next run continues from the last committed page instead of page 1.
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
        /// The number of pages this run fetched.
        public var pagesFetched = 0
        /// The number of distinct items on the pages this run fetched: an id already listed counts once.
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

        /// Whether this run continued a list an earlier run had started.
        public var resumed: Bool { startIndex > 0 }
    }

    /// The store the pages go to.
    public let store: CacheStore
    /// The source of the pages.
    public let source: Source
    /// The collection the pages are filed under.
    public let collection: CollectionDescriptor

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
    ///   a store error, or `CancellationError`. Pages saved before the error stay saved.
    @discardableResult
    public func run(
        maxPages: Int? = nil,
        refresh: Bool = false,
        onPage: (Progress) -> Void = { _ in }
    ) async throws -> Progress {
        let cached = try store.collection(collection.key)
        var index = 0
        var token: PageToken?
        if !refresh, let cached, cached.generation > 0 {
            guard !cached.endReached else {
                return Progress(
                    startIndex: cached.currentPageCount, pagesCached: cached.currentPageCount,
                    total: cached.total, endReached: true)
            }
            index = cached.nextPageIndex
            token = cached.resumeToken
        }
        var progress = Progress(startIndex: index, pagesCached: index, total: cached?.total)
        var seen: Set<PageToken> = token.map { [$0] } ?? []
        var restarts = 0
        while maxPages.map({ progress.pagesFetched < $0 }) ?? true {
            try Task.checkCancellation()
            // A request without validators cannot be answered "not modified"; a source that does has nothing new.
            guard var page = try await source.fetch(PageRequest(token: token)).page else { break }
            try Task.checkCancellation()
            if page.items.isEmpty && index > 0 { page.nextToken = nil }
            if let next = page.nextToken, !seen.insert(next).inserted {
                throw StoreError.tokenDidNotAdvance(collection: collection.key, token: next.rawValue)
            }
            let info: CollectionHead
            do {
                info = try store.savePage(page, at: index, in: collection)
            } catch StoreError.pageOutOfOrder where restarts < Self.maxRestarts {
                // Another process started the list again meanwhile: go on from where the cache now stands.
                restarts += 1
                guard let current = try store.collection(collection.key), !current.endReached else {
                    progress.endReached = true
                    break
                }
                (index, token) = (current.nextPageIndex, current.resumeToken)
                seen = token.map { [$0] } ?? []
                continue
            }
            progress.pagesFetched += 1
            progress.itemsFetched += page.items.count - info.repeatedItemCount
            progress.repeatedItems += info.repeatedItemCount
            progress.pagesCached = info.currentPageCount
            progress.total = info.total
            progress.endReached = info.endReached
            onPage(progress)
            guard let next = page.nextToken else { break }
            token = next
            index += 1
        }
        return progress
    }
}
