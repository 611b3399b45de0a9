import Foundation
import Slippers
import SlippersStorage

extension Pager {
    /// Publishes the first cached pages and loads the first page as the policy says.
    ///
    /// With ``CachePolicy/cacheThenNetwork`` the window of cached pages (the
    /// first page, or the pager's `initialWindow` pages) is published before
    /// any request is sent, then the first page is revalidated (a conditional
    /// request when its validators are known, a comparison of its items'
    /// digest otherwise) unless it is within its freshness lifetime. An
    /// unchanged first page starts no new generation: the other cached pages
    /// are served as they are and paging resumes after them. A feed (a list
    /// whose new items come first) is read from its head as ``refresh()``
    /// reads it: its new items join the top, above a gap when they do not
    /// reach the items read before. A failure is
    /// recorded in ``State/refresh``; the cached items stay published. Only the
    /// window's pages are read, never the rest of the cache. Calling it again
    /// reads the window again, keeping its size. Calls made while a first-page
    /// load runs wait for it instead of starting another.
    public func start() async {
        // Open in this process: a budget keeps it, and counts it as read now.
        if !isOpen {
            isOpen = (try? cache.markOpen(list.key)) != nil
        }
        _ = await runFirstPageLoad { pager in try await pager.loadFirstPage() }
    }

    /// Marks every page of the list unverified in the cache and revalidates the first page at once.
    ///
    /// The mark is visible to every process that opens the file. The first
    /// page is revalidated now, whatever the backoff; each later page is
    /// revalidated (conditionally) when ``loadNextPageIfNeeded()`` reaches it,
    /// so a change on page 3 shows as soon as page 3 is in the window. A
    /// changed first page starts a new generation in one transaction; the
    /// window keeps its size, its older pages stay published until they are
    /// replaced, and an id is never published twice.
    /// With ``CachePolicy/cacheOnly`` only the mark happens.
    ///
    /// A complete list whose new items come first (`SQLiteCache.newestFirst(_:)`,
    /// recorded by `slippers sync --newest-first` or ``SQLiteCache/setNewestFirst(_:for:)``)
    /// is refreshed from its head instead: pages are read from the first until
    /// one whose items are all cached unchanged, the new items join the top of
    /// the list and changed ones are updated (`ListSync.refreshHead`), and
    /// the window is read again at its size. One new item costs two requests;
    /// no item is published twice. When the server then announces another
    /// total than the cache holds (items were removed), the list is refreshed
    /// as above.
    ///
    /// - throws: The load's error, also recorded in ``State/refresh``.
    public func refresh() async throws {
        if policy.usesNetwork, try isFeedWithAHead() {
            clearBackoff()
            if let error = await runFirstPageLoad({ pager in try await pager.refreshFeedHead() }) { throw error }
            return
        }
        if policy.usesNetwork, try refreshesFromTheHead() {
            clearBackoff()
            if let error = await runFirstPageLoad({ pager in try await pager.refreshHead() }) { throw error }
            return
        }
        try await refreshEveryPage()
    }

    /// Whether ``refresh()`` reads the list's head: a complete list, shown, whose new items come first.
    private func refreshesFromTheHead() throws -> Bool {
        guard policy.readsCache, windowHead != nil, try cache.listHead(list.key)?.endReached == true
        else { return false }
        return try cache.newestFirst(list.key) == true
    }

    /// Reads the list's head into the cache and shows the window again; refreshes every page when
    /// the server's total then differs from the cache's.
    private func refreshHead() async throws {
        state.refresh = .loading
        publish()
        let found: ListSync<AnyPageSource<RawItem>>.HeadRefresh
        do {
            found = try await ListSync(storage: cache, source: source, list: list).refreshHead()
        } catch {
            recordFirstPageFailure(error)
            throw error
        }
        guard !found.totalDiffers else {
            try cache.invalidate(list.key, now: clock())
            verifiedThisSession = []
            try await revalidateFirstPage()
            return
        }
        state.refresh = .idle
        state.append = .idle
        try readWindow(pageCount: max(windowPages.count, 1))
        try publishWindow(provenance: .network)
    }

    /// Marks every page unverified and revalidates the first page: ``refresh()`` of a list not read from its head.
    private func refreshEveryPage() async throws {
        if try cache.listHead(list.key) != nil {
            try cache.invalidate(list.key, now: clock())
            verifiedThisSession = []
            if windowHead != nil {
                try readWindow(pageCount: windowPages.count)
                try publishWindow(provenance: state.provenance)
            }
            state.isUnverified = true
            publish()
        }
        guard policy.usesNetwork else { return }
        clearBackoff()
        isEphemeral = false
        if let error = await runFirstPageLoad({ pager in try await pager.revalidateFirstPage() }) { throw error }
    }

    /// Asks the network again now, without waiting for the backoff: the failed loads are run again.
    ///
    /// The Paging 3 `retry()`: a failed first-page load is retried, then a failed
    /// later page. Without a failure it only ends the backoff.
    public func retry() async {
        clearBackoff()
        guard policy.usesNetwork else { return }
        if state.refresh.error != nil || windowHead == nil {
            _ = await runFirstPageLoad { pager in try await pager.revalidateFirstPage() }
        }
        if state.append.error != nil { await loadNextPageIfNeeded() }
    }

    /// Shows one more page: revalidates the first page of the window that needs it, or grows the window by a page.
    ///
    /// The first rule that applies decides:
    /// 1. When the network may be asked (the policy uses it and no backoff
    ///    runs) and a page of the window needs it — of an older generation,
    ///    marked unverified by a refresh, past its lifetime, `no-cache`, or no
    ///    longer decodable — the first such page is revalidated (conditionally)
    ///    and replaced only when it changed.
    /// 2. When the page after the window is cached and needs no request, the
    ///    window grows by it, read from the cache.
    /// 3. When the network may be asked, the page after the window is fetched
    ///    (conditionally when a copy is cached), saved unless unchanged, and the
    ///    window grows by it.
    /// 4. Otherwise — offline, in a backoff, or cache-only — the window grows by
    ///    the cached page after it, whatever its generation or age, marked by its provenance.
    ///
    /// A failed request is recorded in ``State/append`` and starts a backoff
    /// (``State/nextRetryAt``): until it ends or ``retry()`` is called, no
    /// request is sent and the window grows through the cached pages only.
    /// Safe to call many times: calls made while a load runs wait for it
    /// instead of sending another request; once the end is reached and the
    /// window shows every cached page, settled, it does nothing.
    public func loadNextPageIfNeeded() async {
        if let refreshTask { await refreshTask.value }
        guard !state.endReached || state.settledPageCount < state.pages.count else { return }
        await runAppendLoad { pager in await pager.appendNextPage() }
    }

    /// Runs a load of a later page, or waits for the one that runs: such loads are coalesced.
    func runAppendLoad(_ work: @escaping @Sendable (isolated Pager) async -> Void) async {
        if let appendTask {
            await Self.await(appendTask)
            return
        }
        let task = Task { await work(self) }
        appendTask = task
        await Self.await(task)
        appendTask = nil
    }

    /// Shows one more page when `row` is within `distanceFromEnd` rows of the end of
    /// ``State/rowsBeforeNextPage``: the settled rows, or every row shown once a load failed.
    ///
    /// Drive it from a list's "row displayed" callback, or from an `InfiniteListTrigger`.
    public func loadNextPageIfNeeded(displayedRow row: Int, distanceFromEnd: Int = 5) async {
        guard row >= state.rowsBeforeNextPage - distanceFromEnd else { return }
        await loadNextPageIfNeeded()
    }

    // MARK: - First page

    /// Runs a first-page load, or waits for the one that runs, and returns its error.
    func runFirstPageLoad(_ work: @escaping @Sendable (isolated Pager) async throws -> Void) async
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

    func loadFirstPage() async throws {
        if policy.readsCache { try readWindow(pageCount: max(windowPages.count, initialWindow)) }
        let first = policy.readsCache ? windowPages.first?.info : nil
        let now = clock()
        let mayAsk = policy.usesNetwork && !isBackingOff(at: now)
        switch policy {
        case .cacheOnly:
            try publishWindow(provenance: .cache)
        case .cacheFirst(let maxAge):
            guard let first else {
                if mayAsk { try await revalidateFirstPage() }
                return
            }
            if !needsNetwork(first, at: now) || !mayAsk {
                try publishWindow(provenance: .cache)
                return
            }
            // Past its lifetime, a page is shown while it is revalidated only within
            // stale-while-revalidate when the server set one (RFC 5861).
            let showsStale = Self.isWithin(first.staleWhileRevalidate, pastExpiryOf: first, maxAge: maxAge, at: now)
            if showsStale { try publishWindow(provenance: .cache) }
            do {
                try await revalidateFirstPage()
            } catch {
                if !showsStale { try publishWindow(provenance: .cache) }
                if isWithinStaleIfError(first, at: now) {
                    // Within stale-if-error the cached page stands in for the answer: not a failure.
                    state.refresh = .idle
                    publish()
                    return
                }
                throw error
            }
        case .cacheThenNetwork:
            if first != nil { try publishWindow(provenance: .cache) }
            if let first, first.isWithinLifetime(at: now), isServable(first) { return }
            guard mayAsk else { return }
            // A feed's first page is merged at its top: the items read before stay, below the new ones.
            // A feed read to its end is read from its head, as refresh() reads it: a first page
            // revalidated alone would put its new items above the old first page's with no gap.
            if first != nil, try isFeedWithAHead() {
                try await refreshFeedHead()
            } else if first != nil, try refreshesFromTheHead() {
                try await refreshHead()
            } else {
                try await revalidateFirstPage()
            }
        case .networkFirst:
            guard mayAsk else {
                if first != nil { try publishWindow(provenance: .cache) }
                return
            }
            do {
                try await revalidateFirstPage()
            } catch {
                if first != nil, state.provenance == .none { try publishWindow(provenance: .cache) }
                throw error
            }
        case .networkOnly:
            if mayAsk { try await revalidateFirstPage() }
        }
    }

    /// Whether `now` is within `window` seconds past the page's expiry; `unset` when the server gave no window.
    private static func isWithin(
        _ window: TimeInterval?, pastExpiryOf page: PageInfo, maxAge: TimeInterval, at now: Date, unset: Bool = true
    ) -> Bool {
        guard let window else { return unset }
        guard let expiresAt = page.expiresAt(maxAge: maxAge) else { return true }
        return now < expiresAt.addingTimeInterval(window)
    }

    /// Revalidates the first page (conditionally when its validators are known) and publishes the result.
    func revalidateFirstPage() async throws {
        state.refresh = .loading
        publish()
        do {
            let cachedFirst = policy.readsCache ? try cache.pageInfo(at: 0, in: list.key) : nil
            // With cached rows on screen, one failure is told at once; the backoff tries again later.
            let result = try await source.fetch(
                PageRequest(
                    token: nil, validators: validators(of: cachedFirst, at: 0),
                    retriesTransientFailures: cachedFirst == nil || state.items.isEmpty))
            try Task.checkCancellation()
            let now = clock()
            switch result {
            case .notModified(let latest):
                try cache.markPageNotModified(at: 0, in: list.key, validators: latest, now: now)
                verifiedThisSession.insert(0)
            case .page(let page) where page.caching.cacheControl.noStore && !keepsNoStorePages:
                holdInMemory(page, at: 0, now: now)
                state.refresh = .idle
                state.append = .idle
                clearBackoff()
                try publishWindow(provenance: .network)
                return
            case .page(let page):
                isEphemeral = false
                let save = try cache.savePageIfChanged(page, at: 0, in: list, now: now)
                recordFeed(ifShownBy: page)
                if save.outcome == .unchanged {
                    verifiedThisSession.insert(0)
                } else {
                    keepLeftovers(ofPageAt: 0, replacedBy: page.items)
                    verifiedThisSession = [0]
                }
            }
            undecodable[0] = undecodable[0].map { _ in true }
            state.refresh = .idle
            state.append = .idle
            clearBackoff()
            // The window keeps its size: its pages of the old generation stay shown until replaced.
            try readWindow(pageCount: max(windowPages.count, 1))
            try publishWindow(provenance: .network)
            if let failure = decodingFailure(ofFetchedPageAt: 0) {
                state.refresh = .failed(failure)
                publish()
            }
        } catch {
            recordFirstPageFailure(error)
            throw error
        }
    }

    // MARK: - Next pages

    private func appendNextPage() async {
        if isEphemeral {
            await appendPageInMemory()
            return
        }
        let head: ListHead?
        do {
            head = try cache.listHead(list.key)
        } catch {
            state.append = .failed(error)
            publish()
            return
        }
        let now = clock()
        let mayAsk = policy.usesNetwork && !isBackingOff(at: now)
        guard let head, head.generation > 0, !windowPages.isEmpty else {
            // Nothing was ever loaded: the next page is the first.
            if mayAsk {
                _ = await runFirstPageLoad { pager in try await pager.revalidateFirstPage() }
            } else {
                reportNoWayForward(toPageAt: 0)
            }
            return
        }
        if mayAsk, let index = firstUnsettledIndex(at: now) {
            if index == 0 {
                _ = await runFirstPageLoad { pager in try await pager.revalidateFirstPage() }
            } else {
                await fetchPage(at: index, cached: windowPages[index].info, fallingBackToCache: false)
            }
            return
        }
        let next = windowPages.count
        // Read only when the page may be cached: a page past every cached one costs no read.
        let window: CachedWindow?
        do {
            window = next < head.cachedPageCount ? try cache.window(list.key, pages: next..<next + 1) : nil
        } catch {
            state.append = .failed(error)
            publish()
            return
        }
        let cached = window?.pages.first
        let previous = windowPages[next - 1].info
        if let window, let cached, policy.readsCache || !cached.info.isSuperseded,
            !(mayAsk && needsNetwork(cached.info, at: now)) || isWithinStaleWhileRevalidate(cached.info, at: now)
        {
            // Within stale-while-revalidate the page is shown now; being unsettled, the next call revalidates it.
            growWindow(with: window)
        } else if mayAsk, !previous.isSuperseded, previous.nextToken != nil {
            await fetchPage(at: next, cached: cached?.info, fallingBackToCache: policy.readsCache)
        } else if let window, cached != nil, policy.readsCache {
            growWindow(with: window)
        } else {
            if windowHead != head {
                // Nothing to show or ask: only what the head says may have changed (another process wrote).
                windowHead = head
                publishHead()
            }
            if !mayAsk { reportNoWayForward(toPageAt: next) }
        }
    }

    /// Records in ``State/append`` why the window cannot grow to the page at `index` now, unless
    /// the list ended or a failure is already recorded there: a list whose last row is shown
    /// loads more, shows its end, or shows why not.
    func reportNoWayForward(toPageAt index: Int) {
        guard !state.endReached, state.append.error == nil, !state.isLoading else { return }
        let itemType = String(describing: Item.self)
        state.append = .failed(
            policy.usesNetwork
                ? PagerError(.offline, pageIndex: index, itemType: itemType, retryAt: retryAt)
                : PagerError(.notCached, pageIndex: index, itemType: itemType))
        publish()
    }

    /// Why the page at `index`, fetched just now, does not decode, if it does not.
    private func decodingFailure(ofFetchedPageAt index: Int) -> PagerError? {
        guard undecodable[index] != nil else { return nil }
        return decodingFailures[index]
    }

    /// Fetches the page at `index` (conditionally when a copy is cached), saves it unless unchanged,
    /// and publishes the window with it.
    ///
    /// The page before it is a settled page of the current generation: its next token names this one.
    ///
    /// - parameter cached: The cached copy of the page, if any.
    /// - parameter fallingBackToCache: Whether a failed request grows the window by the
    ///   cached page at `index`, whatever its generation.
    private func fetchPage(at index: Int, cached: PageInfo?, fallingBackToCache: Bool) async {
        guard let token = windowPages[index - 1].info.nextToken else { return }
        state.append = .loading
        publish()
        do {
            let sameRequest = cached?.token == token ? cached : nil
            let result = try await source.fetch(
                PageRequest(token: token, validators: validators(of: sameRequest, at: index)))
            try Task.checkCancellation()
            let now = clock()
            switch result {
            case .notModified(let latest):
                try cache.markPageNotModified(at: index, in: list.key, validators: latest, now: now)
                // Nothing was pushed onto an unchanged page: the items left over before it were removed.
                dropLeftovers(after: index - 1)
            case .page(var page):
                if page.items.isEmpty { page.nextToken = nil }
                if page.nextToken == token {
                    throw CacheError.tokenDidNotAdvance(list: list.key, token: token.rawValue)
                }
                if page.caching.cacheControl.noStore && !keepsNoStorePages {
                    holdInMemory(page, at: index, now: now)
                    state.append = .idle
                    clearBackoff()
                    try publishWindow(provenance: state.provenance == .none ? .network : state.provenance)
                    return
                }
                let save = try cache.savePageIfChanged(page, at: index, in: list, now: now)
                if save.outcome != .unchanged {
                    keepLeftovers(ofPageAt: index, replacedBy: page.items)
                } else {
                    dropLeftovers(after: index - 1)
                }
            }
            verifiedThisSession.insert(index)
            undecodable[index] = undecodable[index].map { _ in true }
            state.append = .idle
            clearBackoff()
            try placeSavedPage(at: index)
            try publishAppendedPage(provenance: state.provenance == .none ? .network : state.provenance)
            if let failure = decodingFailure(ofFetchedPageAt: index) {
                state.append = .failed(failure)
                publish()
            }
        } catch is CancellationError {
            state.append = .idle
            publish()
        } catch {
            // Within stale-if-error the cached copy stands in for the answer: not a failure to report.
            state.append = cached.map { isWithinStaleIfError($0, at: clock()) } == true ? .idle : .failed(error)
            startBackoff()
            if fallingBackToCache, windowPages.count == index {
                growWindowFromCache()
            } else {
                publish()
            }
        }
    }

    /// Whether a cached page past its lifetime may be shown before it is revalidated: under
    /// ``CachePolicy/cacheFirst(maxAge:)``, within the `stale-while-revalidate` its server set.
    private func isWithinStaleWhileRevalidate(_ page: PageInfo, at now: Date) -> Bool {
        guard case .cacheFirst(let maxAge) = policy, page.staleWhileRevalidate != nil, !page.isSuperseded,
            !page.isUnverified, isServable(page), undecodable[page.index] == nil
        else { return false }
        return Self.isWithin(page.staleWhileRevalidate, pastExpiryOf: page, maxAge: maxAge, at: now)
    }

    /// Whether a failed revalidation of a cached page is covered by the `stale-if-error` its
    /// server set, under ``CachePolicy/cacheFirst(maxAge:)``.
    private func isWithinStaleIfError(_ page: PageInfo, at now: Date) -> Bool {
        guard case .cacheFirst(let maxAge) = policy, !page.isSuperseded, !page.isUnverified else { return false }
        return Self.isWithin(page.staleIfError, pastExpiryOf: page, maxAge: maxAge, at: now, unset: false)
    }

    /// The validators to revalidate a cached page with; none for a page that no longer decodes
    /// or that was fetched for other header values, whose copy must be sent again.
    private func validators(of cached: PageInfo?, at index: Int) -> PageValidators? {
        guard let cached, undecodable[index] == nil, isServable(cached), !cached.validators.isEmpty else {
            return nil
        }
        return cached.validators
    }

    // MARK: - No-store pages

    /// Fetches the page after the window and holds it in memory: the window is of `no-store` pages.
    private func appendPageInMemory() async {
        guard let token = windowPages.last?.info.nextToken, policy.usesNetwork, !isBackingOff(at: clock()) else {
            publishHead()
            reportNoWayForward(toPageAt: windowPages.count)
            return
        }
        state.append = .loading
        publish()
        do {
            guard var page = try await source.fetch(PageRequest(token: token)).page else { return }
            try Task.checkCancellation()
            if page.items.isEmpty { page.nextToken = nil }
            if page.nextToken == token {
                throw CacheError.tokenDidNotAdvance(list: list.key, token: token.rawValue)
            }
            holdInMemory(page, at: windowPages.count, now: clock())
            state.append = .idle
            clearBackoff()
            try publishAppendedPage(provenance: .network)
        } catch {
            recordAppendFailure(error)
        }
    }

    /// Puts a fetched page at `index` of the window without storing it; the window is held in memory from now on.
    ///
    /// The server said `no-store`: the page must not reach the file. Later pages
    /// of the session are held in memory too (a stored page needs the one before it stored).
    private func holdInMemory(_ page: Page<RawItem>, at index: Int, now: Date) {
        isEphemeral = true
        let generation = windowHead?.generation ?? 0
        let info = PageInfo(
            index: index, generation: generation, token: page.token, nextToken: page.nextToken,
            validators: page.validators, fetchedAt: now, itemCount: page.items.count, isSuperseded: false,
            verifiedAt: now, digest: nil, lifetime: nil, requiresRevalidation: false, staleWhileRevalidate: nil,
            staleIfError: nil, vary: page.caching.vary, varyKey: page.caching.varyKey, isUnverified: false)
        if index < windowPages.count { publishedThrough = nil }
        windowPages = Array(windowPages.prefix(index)) + [StoredPage(info: info, items: page.items)]
        windowHead = ListHead(
            key: list.key, resumeToken: page.nextToken, endReached: page.nextToken == nil,
            total: page.total ?? windowHead?.total, refreshedAt: index == 0 ? now : windowHead?.refreshedAt,
            invalidatedAt: nil, generation: generation, currentPageCount: index + 1, cachedPageCount: index + 1)
        verifiedThisSession.insert(index)
    }

    /// Grows the window by the cached page after it, if there is one, and publishes it.
    ///
    /// A read failure is recorded in ``State/append``.
    private func growWindowFromCache() {
        do {
            try appendCachedPageToWindow()
            try publishAppendedPage(provenance: state.provenance == .network ? .network : .cache)
        } catch {
            state.append = .failed(error)
            publish()
        }
    }

    /// Grows the window by the page of `window`, read just now, and publishes it.
    private func growWindow(with window: CachedWindow) {
        do {
            try appendToWindow(window)
            try publishAppendedPage(provenance: state.provenance == .network ? .network : .cache)
        } catch {
            state.append = .failed(error)
            publish()
        }
    }

    /// Records a failed load of a later page in ``State/append`` and starts the backoff; a
    /// cancelled load is not a failure: the state goes back to where it was.
    func recordAppendFailure(_ error: any Error) {
        if error is CancellationError {
            state.append = .idle
        } else {
            state.append = .failed(error)
            startBackoff()
        }
        publish()
    }

    /// Records a failed first-page load in ``State/refresh`` and starts the backoff; a cancelled
    /// load is not a failure: the state goes back to where it was.
    func recordFirstPageFailure(_ error: any Error) {
        if error is CancellationError {
            state.refresh = .idle
        } else {
            state.refresh = .failed(error)
            startBackoff()
        }
        publish()
    }

    // MARK: - Backoff

    func isBackingOff(at now: Date) -> Bool {
        guard let retryAt else { return false }
        return now < retryAt
    }

    func startBackoff() {
        failureCount += 1
        retryAt = clock().addingTimeInterval(backoff.delay(afterFailures: failureCount))
        state.nextRetryAt = retryAt
    }

    func clearBackoff() {
        failureCount = 0
        retryAt = nil
        state.nextRetryAt = nil
    }

    /// Waits for `task`, cancelling it when the waiting task is cancelled.
    static func await(_ task: Task<Void, Never>) async {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
