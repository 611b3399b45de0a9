import Slippers

extension ListSync {
    /// Asks for the pages ``PageWalk/nextRequest(concurrencyLimit:hasRoom:asksItemBefore:)`` names,
    /// each in a task of `group`, as far as the concurrency, the limits and the known end allow.
    func ask(
        _ walk: inout PageWalk, concurrency: AdaptiveConcurrency, retryBudget: RetryBudget,
        _ group: inout ThrowingTaskGroup<PagesInFlight.Fetched, any Error>
    ) {
        // A stopping sync asks for nothing more; the pages in flight are saved, then it ends.
        if SyncStop.isRequestedHere { return }
        let source = self.source
        while let request = walk.nextRequest(
            concurrencyLimit: concurrency.limit, hasRoom: { concurrency.hasRoom() },
            asksItemBefore: { source.asksItemBefore(at: $0) })
        {
            start(
                index: request.index, token: request.token, overlaps: request.overlaps, epoch: walk.inFlight.epoch,
                concurrency: concurrency, retryBudget: retryBudget, &group)
            // The last page read first is asked for alone.
            if walk.progress.lastPageFirst?.lastIndex == request.index { return }
        }
    }

    /// Fetches the page at `pageIndex` in a task of its own, with the run's retries.
    private func start(
        index pageIndex: Int, token pageToken: PageToken?, overlaps: Bool, epoch: Int,
        concurrency: AdaptiveConcurrency, retryBudget: RetryBudget,
        _ group: inout ThrowingTaskGroup<PagesInFlight.Fetched, any Error>
    ) {
        let request = PageRequest(token: pageToken, overlapsPreviousPage: overlaps)
        let number = concurrency.start()
        let (storage, source, key, onPageRetry) = (self.storage, self.source, list.key, self.onPageRetry)
        let (tracer, described) = (self.tracer, list)
        group.addTask {
            var retries = 0
            let started = ContinuousClock.now
            let result: Result<PageResult<RawItem>, any Error>
            do {
                result = .success(
                    try await concurrency.run(request: number) {
                        try await SyncTracing.page(tracer, index: pageIndex, list: described) {
                            try await retryBudget.run(
                                retries: &retries,
                                onRetry: {
                                    storage.pageWillBeRetried(at: pageIndex, in: key, error: $0, wait: $1)
                                    onPageRetry?(pageIndex, $0, $1)
                                },
                                { try await source.fetch(request) })
                        }
                    })
            } catch {
                result = .failure(error)
            }
            concurrency.finish(request: number, succeeded: (try? result.get()) != nil)
            SyncMetrics.recordFetch(since: started, retries: retries)
            return PagesInFlight.Fetched(epoch: epoch, index: pageIndex, result: result, retries: retries)
        }
    }

    /// The page at `pageIndex` once the item asked for before it is checked (see
    /// ``checkingOverlap(_:at:after:overlap:progress:isListed:readsAhead:retryBudget:)``); the page
    /// as it is when it was not asked for so.
    func checkingOverlap(
        _ page: Page<RawItem>, at pageIndex: Int, in walk: inout PageWalk, retryBudget: RetryBudget
    ) async throws -> Page<RawItem> {
        guard pageIndex > 0, walk.overlap.askedUnread.remove(pageIndex) != nil else { return page }
        let (storage, key, heldNow, saved) = (self.storage, list.key, walk.heldKeys, walk.index)
        let checked = try await checkingOverlap(
            page, at: pageIndex, after: walk.previousKeys.last, overlap: &walk.overlap, progress: &walk.progress,
            isListed: { item in
                if heldNow.contains(item) { return true }
                return try await storage.unlistedCount(of: [item], before: saved, in: key) == 0
            },
            readsAhead: walk.readsAhead, retryBudget: retryBudget)
        // A source that does not give the item before a page has its last page read first instead.
        if pageIndex == 1, !walk.overlap.asks || walk.overlap.distrusted, let first = walk.firstPage {
            walk.readLastPageFirst(firstKeys: first.items.map(\.key), readsAgainInReverse: readsAgainInReverse)
        }
        return checked
    }

    /// What became of a page the walk read.
    enum PageSaving {
        /// It was saved, with the pages held before it, or it waits with the pages read and not saved
        /// yet (``PageWalk/unsaved``).
        case saved
        /// It brought no new item: it is held until a page does.
        case held
        /// Another process started the list again meanwhile: the walk goes on from where the cache stands.
        case restarted
        /// Another process ended the list meanwhile.
        case ended
    }

    /// Saves the page read at `pageIndex` with the pages held before it, or holds it when it
    /// brings no item the cache does not list: a server that repeats itself for ever ends as a
    /// stalled list, with nothing of it committed. When no page is held, the page joins the
    /// pages read and not saved yet (``PageWalk/unsaved``), which ``saveUnsaved(in:onPage:)``
    /// saves together.
    func save(
        _ page: Page<RawItem>, at pageIndex: Int, in walk: inout PageWalk, onPage: (SyncProgress) -> Void
    ) async throws -> PageSaving {
        guard !walk.held.isEmpty else {
            walk.unsaved.append(page)
            return .saved
        }
        let pageKeys = Set(page.items.map(\.key))
        if pageIndex > 0, !page.isLast, !pageKeys.isEmpty,
            try await storage.unlistedCount(
                of: pageKeys.subtracting(walk.heldKeys), before: walk.index, in: list.key) == 0
        {
            try walk.hold(page, keys: pageKeys)
            return .held
        }
        for saved in walk.held + [page] {
            let head: ListHead
            do {
                head = try await storage.savePage(saved, at: walk.index, in: recordedList)
            } catch let error as CacheError where error.code == .pageOutOfOrder && walk.restarts < Self.maxRestarts {
                return try await restart(&walk)
            }
            record(saved, head: head, in: &walk, onPage: onPage)
        }
        (walk.held, walk.heldKeys) = ([], [])
        return .saved
    }

    /// Saves the pages read and not saved yet (``PageWalk/unsaved``) in one transaction, up to the
    /// first that brings nothing new, which is held; the pages after it are saved or held one at a time.
    func saveUnsaved(in walk: inout PageWalk, onPage: (SyncProgress) -> Void) async throws -> PageSaving {
        guard !walk.unsaved.isEmpty else { return .saved }
        let pages = walk.unsaved
        walk.unsaved = []
        let heads: [ListHead]
        do {
            heads = try await storage.savePagesUnlessNothingNew(pages, at: walk.index, in: recordedList)
        } catch let error as CacheError where error.code == .pageOutOfOrder && walk.restarts < Self.maxRestarts {
            return try await restart(&walk)
        }
        for (page, head) in zip(pages, heads) { record(page, head: head, in: &walk, onPage: onPage) }
        guard heads.count < pages.count else { return .saved }
        let held = pages[heads.count]
        try walk.hold(held, keys: Set(held.items.map(\.key)))
        for page in pages[(heads.count + 1)...] {
            switch try await save(page, at: walk.index + walk.held.count, in: &walk, onPage: onPage) {
            case .saved, .held: continue
            case .restarted: return .restarted
            case .ended: return .ended
            }
        }
        // Pages saved with the held ones leave the pages after them unsaved: saved now.
        guard walk.held.isEmpty else { return .held }
        return try await saveUnsaved(in: &walk, onPage: onPage)
    }

    /// Counts a page saved with the head the cache answered, and tells `onPage`.
    private func record(
        _ page: Page<RawItem>, head: ListHead, in walk: inout PageWalk, onPage: (SyncProgress) -> Void
    ) {
        walk.recordSaved(page, head: head)
        SyncMetrics.recordSaved(items: page.items.count - head.repeatedItemCount)
        onPage(walk.progress)
    }

    /// Goes on from where the cache stands after another process started the list again meanwhile;
    /// `.ended` when it ended the list.
    private func restart(_ walk: inout PageWalk) async throws -> PageSaving {
        guard let current = try await storage.list(list.key), !current.endReached else {
            walk.progress.endReached = true
            return .ended
        }
        let walked = try await storage.walkedTokens(
            in: list.key, before: current.nextPageIndex, generation: current.generation)
        walk.restart(
            at: current.nextPageIndex, token: current.resumeToken, walked: walked,
            addressable: source as? any AddressablePageSource)
        return .restarted
    }
}
