import Foundation
import Slippers

extension CachedPager {
    /// Publishes what the cache holds and loads the first page as the policy says.
    ///
    /// With ``CachePolicy/cacheThenNetwork`` the cached pages are published
    /// before any request is sent, then the first page is revalidated (a
    /// conditional request when its validators are known). A failure is
    /// recorded in ``State/refresh``; the cached items stay published.
    /// Calls made while a first-page load runs wait for it instead of starting another.
    public func start() async {
        _ = await runFirstPageLoad { pager in try await pager.loadFirstPage() }
    }

    /// Marks the collection stale in the store and loads its first page again.
    ///
    /// The invalidation is visible to every process that opens the file. The
    /// new first page starts a new generation in one transaction; the pages
    /// of the old generation stay published, marked stale, until they are
    /// replaced, and an id is never published twice. With
    /// ``CachePolicy/cacheOnly`` only the invalidation happens.
    ///
    /// - throws: The load's error, also recorded in ``State/refresh``.
    public func refresh() async throws {
        if try store.collection(collection.key) != nil {
            try store.invalidate(collection.key, now: clock())
            state.isStale = true
            publish()
        }
        guard policy.usesNetwork else { return }
        if let error = await runFirstPageLoad({ pager in try await pager.revalidateFirstPage() }) { throw error }
    }

    /// Loads the next page unless one is loading, the end is reached, or the policy forbids the network.
    ///
    /// Safe to call many times: calls made while a load runs wait for it
    /// instead of sending another request; at the end of the list it does
    /// nothing. A failure is recorded in ``State/append``; calling again retries.
    public func loadNextPageIfNeeded() async {
        if let refreshTask { await refreshTask.value }
        guard policy.usesNetwork, !state.endReached else { return }
        if let appendTask {
            await Self.await(appendTask)
            return
        }
        let task = Task { await self.appendNextPage() }
        appendTask = task
        await Self.await(task)
        appendTask = nil
    }

    /// Loads the next page when `row` is within `distanceFromEnd` rows of the last current row.
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
        let cached = policy.readsCache ? try store.cachedList(collection.key) : nil
        switch policy {
        case .cacheOnly:
            try publish(cached, origin: .cache)
        case .cacheFirst(let maxAge):
            if let cached { try publish(cached, origin: .cache) }
            if let cached, isFresh(cached.collection, maxAge: maxAge) { return }
            try await revalidateFirstPage()
        case .cacheThenNetwork:
            if let cached { try publish(cached, origin: .cache) }
            try await revalidateFirstPage()
        case .networkFirst:
            do {
                try await revalidateFirstPage()
            } catch {
                if let cached, state.origin == .none { try publish(cached, origin: .cache) }
                throw error
            }
        case .networkOnly:
            try await revalidateFirstPage()
        }
    }

    private func isFresh(_ collection: CollectionInfo, maxAge: TimeInterval) -> Bool {
        guard collection.invalidatedAt == nil, let refreshedAt = collection.refreshedAt else { return false }
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
            try publishStoredList()
        } catch {
            // A cancelled load is not a failure: the state goes back to where it was.
            state.refresh = error is CancellationError ? .idle : .failed(error)
            publish()
            throw error
        }
    }

    // MARK: - Next pages

    private func appendNextPage() async {
        guard let info = try? store.collection(collection.key), info.generation > 0 else {
            // Nothing was ever loaded: the next page is the first.
            _ = await runFirstPageLoad { pager in try await pager.revalidateFirstPage() }
            return
        }
        guard !info.endReached, let token = info.resumeToken else {
            state.endReached = true
            publish()
            return
        }
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
                try store.savePage(page, at: info.nextPageIndex, in: collection, now: clock())
            }
            state.append = .idle
            try publishStoredList()
        } catch is CancellationError {
            state.append = .idle
            publish()
        } catch {
            state.append = .failed(error)
            publish()
        }
    }

    // MARK: - Publishing

    /// Publishes the collection as the store now holds it, as delivered by the network.
    private func publishStoredList() throws {
        if policy.readsCache {
            guard let list = try store.cachedList(collection.key) else { return }
            try publish(list, origin: .network)
        } else {
            try publish(currentGenerationList(), origin: .network)
        }
    }

    /// The collection's pages of the current generation only: what a network-only pager fetched.
    private func currentGenerationList() throws -> CachedList? {
        guard let info = try store.collection(collection.key) else { return nil }
        var pages: [PageInfo] = []
        var items: [RawItem] = []
        var seen: Set<ItemKey> = []
        for index in 0..<info.currentPageCount {
            guard let page = try store.page(at: index, in: collection.key) else { break }
            pages.append(page.info)
            items += page.items.filter { seen.insert($0.key).inserted }
        }
        return CachedList(collection: info, pages: pages, items: items)
    }

    private func publish(_ list: CachedList?, origin: Origin) throws {
        guard let list else {
            publish()
            return
        }
        state.items = try decode(list.items)
        state.pages = list.pages
        state.total = list.collection.total
        state.endReached = list.collection.endReached
        state.isStale = list.collection.isStale
        state.cachedAt = list.collection.refreshedAt
        state.origin = origin
        publish()
    }

    /// Decodes the items, reusing the decoded value of every item whose JSON did not change.
    private func decode(_ items: [RawItem]) throws -> [Item] {
        var fresh: [RawItem] = []
        for item in items where decodedItems[item.key]?.json != item.json { fresh.append(item) }
        let decoded = try fresh.decoded(as: Item.self)
        var kept: [ItemKey: (json: Data, item: Item)] = [:]
        kept.reserveCapacity(items.count)
        for (raw, item) in zip(fresh, decoded) { kept[raw.key] = (raw.json, item) }
        var result: [Item] = []
        result.reserveCapacity(items.count)
        for raw in items {
            let entry = kept[raw.key] ?? decodedItems[raw.key]
            if let entry {
                kept[raw.key] = entry
                result.append(entry.item)
            }
        }
        decodedItems = kept
        return result
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
