import Slippers
import Synchronization

extension PostgresCache {
    /// What a sync of a shared list did besides its own walk.
    public struct SharedSync<Result: Sendable>: Sendable {
        /// What the walk returned.
        public var result: Result
        /// The pages the walk took from other workers instead of fetching them.
        public var pagesFetchedByOthers: Int
        /// The pages this worker fetched ahead for another one while it waited for the lease.
        public var pagesFetchedAhead: Int
    }

    /// Syncs a list that other workers may sync at the same time: one walks it and commits its
    /// pages, the others wait for it and fetch its pages ahead meanwhile.
    ///
    /// The list's lease is taken first (see ``withListLease(_:onWait:whileWaiting:_:)``). While
    /// another worker holds it, this one fetches that worker's pages ahead, when they can be named
    /// by index and the list's total is known (see ``fetchPagesAhead(of:source:concurrency:until:)``).
    /// Once the lease is this worker's, a list started meanwhile with another style than the one
    /// this walk was planned from fails with ``FleetError/pagedOtherwiseMeanwhile(list:)``
    /// unless `refresh` starts it again; otherwise `body` walks it from a ``SharedPageSource``,
    /// which takes the pages other workers staged (see ``walkingSharedList(_:refresh:_:)``).
    ///
    /// For example, with a `ListSync` over the source:
    ///
    /// ```swift
    /// let list = SharedList(list: list.key, fingerprint: fingerprint)
    /// let synced = try await cache.syncingSharedList(
    ///     list, source: source, plannedStyle: list.style, refresh: false, concurrency: 6
    /// ) { shared in
    ///     let sync = ListSync(storage: cache, source: shared, list: list)
    ///     return try await sync.run()
    /// }
    /// ```
    ///
    /// - parameter list: The list and the fingerprint of how its pages are asked for.
    /// - parameter source: The list's source, as this worker asks for its pages.
    /// - parameter plannedStyle: The style the walk was planned from: the stored style it resumes,
    ///   or the one it starts with.
    /// - parameter refresh: Whether the walk starts the list again at its first page.
    /// - parameter concurrency: How many pages this worker fetches ahead at once while it waits.
    /// - parameter onWait: Called once when another worker holds the lease, before waiting for it.
    /// - parameter body: The walk, from the shared source; it runs under the lease.
    /// - throws: What `body` throws, ``FleetError/pagedOtherwiseMeanwhile(list:)`` or a ``PostgresCacheError``.
    public func syncingSharedList<Base: AddressablePageSource, Result: Sendable>(
        _ list: SharedList, source: Base, plannedStyle: String?, refresh: Bool, concurrency: Int,
        onWait: @Sendable () -> Void = {}, _ body: (SharedPageSource<Base>) async throws -> Result
    ) async throws -> SharedSync<Result> where Base.Item == RawItem {
        let shared = SharedPageSource(base: source, cache: self, list: list)
        let fetchedAhead = Mutex(0)
        let key = list.list
        let fetchAhead: @Sendable (_ leaseTaken: @escaping @Sendable () -> Bool) async -> Void = { leaseTaken in
            let pages = await self.fetchPagesAhead(
                of: list, source: source, concurrency: concurrency, until: leaseTaken)
            fetchedAhead.withLock { $0 += pages }
        }
        let result = try await withListLease(key, onWait: onWait, whileWaiting: fetchAhead) {
            if !refresh, let now = try await self.list(key), now.generation > 0, !now.endReached,
                now.style != plannedStyle
            {
                throw FleetError.pagedOtherwiseMeanwhile(list: key)
            }
            return try await walkingSharedList(list, refresh: refresh) { try await body(shared) }
        }
        return SharedSync(
            result: result, pagesFetchedByOthers: shared.pagesFetchedByOthers,
            pagesFetchedAhead: fetchedAhead.withLock { $0 })
    }
}
