import Foundation
import Slippers

extension CachedPager {
    /// Publishes the first cached pages and loads the first page as the policy says.
    ///
    /// With ``CachePolicy/cacheThenNetwork`` the window of cached pages (the
    /// first page, or the pager's `initialWindow` pages) is published before
    /// any request is sent, then the first page is revalidated (a conditional
    /// request when its validators are known). A failure is recorded in
    /// ``State/refresh``; the cached items stay published. Only the window's
    /// pages are read, never the rest of the cache. Calling it again reads the
    /// window again, keeping its size. Calls made while a first-page load runs
    /// wait for it instead of starting another.
    public func start() async {
        _ = await runFirstPageLoad { pager in try await pager.loadFirstPage() }
    }

    /// Marks the collection stale in the store and loads its first page again.
    ///
    /// The invalidation is visible to every process that opens the file. The
    /// new first page starts a new generation in one transaction; the window
    /// keeps its size, and its pages of the old generation stay published,
    /// marked stale, until they are replaced; an id is never published twice.
    /// With ``CachePolicy/cacheOnly`` only the invalidation happens.
    ///
    /// - throws: The load's error, also recorded in ``State/refresh``.
    public func refresh() async throws {
        if try store.collectionHead(collection.key) != nil {
            try store.invalidate(collection.key, now: clock())
            state.isStale = true
            publish()
        }
        guard policy.usesNetwork else { return }
        if let error = await runFirstPageLoad({ pager in try await pager.revalidateFirstPage() }) { throw error }
    }

    /// Shows one more page: grows the window by a page, or replaces a stale page in it.
    ///
    /// The first rule that applies decides:
    /// 1. When the window shows pages of an older generation and the policy
    ///    uses the network, the first of them is fetched again and replaced.
    /// 2. When the page after the window is cached in the current generation,
    ///    the window grows by it, read from the cache: no request.
    /// 3. When the policy uses the network and the end is not reached, the
    ///    page after the window is fetched, saved, and the window grows by it.
    ///    When that request fails and the page is cached from an older
    ///    generation, the window still grows by the stale page, and the error
    ///    is recorded in ``State/append``: offline, the cache stays browsable.
    /// 4. When the page after the window is cached (a cache-only pager), the window grows by it.
    ///
    /// Safe to call many times: calls made while a load runs wait for it
    /// instead of sending another request; once the end is reached and the
    /// window shows every cached page, it does nothing. A failure is recorded
    /// in ``State/append``; calling again retries.
    public func loadNextPageIfNeeded() async {
        if let refreshTask { await refreshTask.value }
        guard !state.endReached else { return }
        if let appendTask {
            await Self.await(appendTask)
            return
        }
        let task = Task { await self.appendNextPage() }
        appendTask = task
        await Self.await(task)
        appendTask = nil
    }

    /// Shows one more page when `row` is within `distanceFromEnd` rows of the last current row.
    ///
    /// Drive it from a list's "row displayed" callback, or from an `InfiniteListTrigger`.
    public func loadNextPageIfNeeded(displayedRow row: Int, distanceFromEnd: Int = 5) async {
        guard row >= state.currentItemCount - distanceFromEnd else { return }
        await loadNextPageIfNeeded()
    }

    // MARK: - First page

    /// Runs a first-page load, or waits for the one that runs, and returns its error.
    private func runFirstPageLoad(_ work: @escaping @Sendable (isolated CachedPager) async throws -> Void) async
        -> (any Error)?
    {
        if let refreshTask {
            await Self.await(refreshTask)
            return refreshError
        }
        let task = Task {
            do {
                try await work(self)
                refreshError = nil
            } catch {
                refreshError = error
            }
        }
        refreshTask = task
        await Self.await(task)
        refreshTask = nil
        return refreshError
    }

    private func loadFirstPage() async throws {
        if policy.readsCache { try readWindow(pageCount: max(windowPages.count, initialWindow)) }
        let isCached = policy.readsCache && windowHead != nil
        switch policy {
        case .cacheOnly:
            try publishWindow(origin: .cache)
        case .cacheFirst(let maxAge):
            if isCached { try publishWindow(origin: .cache) }
            if let windowHead, isCached, isFresh(windowHead, maxAge: maxAge) { return }
            try await revalidateFirstPage()
        case .cacheThenNetwork:
            if isCached { try publishWindow(origin: .cache) }
            try await revalidateFirstPage()
        case .networkFirst:
            do {
                try await revalidateFirstPage()
            } catch {
                if isCached, state.origin == .none { try publishWindow(origin: .cache) }
                throw error
            }
        case .networkOnly:
            try await revalidateFirstPage()
        }
    }

    private func isFresh(_ head: CollectionHead, maxAge: TimeInterval) -> Bool {
        guard head.invalidatedAt == nil, let refreshedAt = head.refreshedAt else { return false }
        return clock().timeIntervalSince(refreshedAt) < maxAge
    }

    /// Fetches the first page (conditionally when its validators are known) and publishes the result.
    private func revalidateFirstPage() async throws {
        state.refresh = .loading
        publish()
        do {
            let cachedFirst = policy.readsCache ? try store.page(at: 0, in: collection.key)?.info : nil
            let validators = cachedFirst.flatMap { $0.isStale || $0.validators.isEmpty ? nil : $0.validators }
            let result = try await source.fetch(PageRequest(token: nil, validators: validators))
            try Task.checkCancellation()
            switch result {
            case .notModified(let latest):
                try store.markPageNotModified(at: 0, in: collection.key, validators: latest, now: clock())
            case .page(let page):
                try store.savePage(page, at: 0, in: collection, now: clock())
            }
            state.refresh = .idle
            state.append = .idle
            // The window keeps its size: its pages of the old generation stay shown until replaced.
            try readWindow(pageCount: max(windowPages.count, 1))
            try publishWindow(origin: .network)
        } catch {
            // A cancelled load is not a failure: the state goes back to where it was.
            state.refresh = error is CancellationError ? .idle : .failed(error)
            publish()
            throw error
        }
    }

    // MARK: - Next pages

    private func appendNextPage() async {
        let head: CollectionHead?
        do {
            head = try store.collectionHead(collection.key)
        } catch {
            state.append = .failed(error)
            publish()
            return
        }
        guard let head, head.generation > 0 else {
            // Nothing was ever loaded: the next page is the first.
            if policy.usesNetwork {
                _ = await runFirstPageLoad { pager in try await pager.revalidateFirstPage() }
            }
            return
        }
        let windowCount = windowPages.count
        let token = head.endReached ? nil : head.resumeToken
        if policy.usesNetwork, let token, head.nextPageIndex < windowCount {
            await fetchPage(at: head.nextPageIndex, token: token, fallingBackToCache: false)
        } else if head.nextPageIndex > windowCount {
            growWindowFromCache()
        } else if policy.usesNetwork, let token {
            await fetchPage(at: windowCount, token: token, fallingBackToCache: policy.readsCache)
        } else if policy.readsCache {
            growWindowFromCache()
        } else {
            windowHead = head
            publishHead()
        }
    }

    /// Fetches the page at `index`, saves it and publishes the window grown to include it.
    ///
    /// - parameter fallingBackToCache: Whether a failed request grows the window by a
    ///   cached page at `index` of an older generation.
    private func fetchPage(at index: Int, token: PageToken, fallingBackToCache: Bool) async {
        state.append = .loading
        publish()
        do {
            let result = try await source.fetch(PageRequest(token: token))
            try Task.checkCancellation()
            if var page = result.page {
                if page.items.isEmpty { page.nextToken = nil }
                if page.nextToken == token {
                    throw StoreError.tokenDidNotAdvance(collection: collection.key, token: token.rawValue)
                }
                try store.savePage(page, at: index, in: collection, now: clock())
            }
            state.append = .idle
            try placeSavedPage(at: index)
            try publishWindow(origin: .network)
        } catch is CancellationError {
            state.append = .idle
            publish()
        } catch {
            state.append = .failed(error)
            if fallingBackToCache, windowPages.count == index {
                growWindowFromCache()
            } else {
                publish()
            }
        }
    }

    /// Grows the window by the cached page after it, if there is one, and publishes it.
    ///
    /// A read or decoding failure is recorded in ``State/append``.
    private func growWindowFromCache() {
        do {
            try appendCachedPageToWindow()
            try publishWindow(origin: state.origin == .network ? .network : .cache)
        } catch {
            state.append = .failed(error)
            publish()
        }
    }

    /// Waits for `task`, cancelling it when the waiting task is cancelled.
    private static func await(_ task: Task<Void, Never>) async {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
