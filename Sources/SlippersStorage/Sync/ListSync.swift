import Foundation
import Slippers
import Tracing

/// Pages a source into the cache, page after page, resuming where the last run stopped.
///
/// Each fetched page is saved whole in one transaction with the list's resume
/// token, so a run killed at any moment loses at most the pages in flight, and
/// the next run continues from the last committed page instead of page 1.
/// Pages that arrive together (read ahead, or from a source faster than the
/// saves) are saved in the same transaction, at most eight; pages read are
/// saved before the walk waits for a page when the last such wait was long
/// (5 ms or more), so a slow source finds each page saved as it comes.
///
/// Every walk ends. It stops with an error, saving nothing of the pages that
/// caused it, when a next token is one the walk has met before (a cycle of any
/// length, across runs too), when a page lists the same ids as the page before
/// it (a server that ignores the page parameter), and when ``Slippers/SyncRequest/Limits/stallLimit``
/// pages in a row bring no item the walk has not met. A rerun of a list that
/// stopped so adds nothing.
///
/// For example:
///
/// ```swift
/// let sync = ListSync(storage: cache, source: source, list: posts)
/// let outcome = try await sync.run { progress in print(progress.itemsFetched) }
/// ```
public struct ListSync<Source: PageSource>: Sendable where Source.Item == RawItem {
    /// Where the pages go: an SQLite file (`SQLiteCache`) or another backend, as far as a walk
    /// needs it: its sync side and the pages it reads back.
    let storage: any SyncStorage & CacheReader

    /// The source of the pages.
    public let source: Source
    /// The list the pages are filed under.
    public let list: ListDescriptor
    /// Whether pages whose response said `Cache-Control: no-store` are saved all the same;
    /// `false` unless set, and a run stops before such a page with ``NoStorePageError``.
    public var keepsNoStorePages = false
    /// How many pages of an `AddressablePageSource` are in flight at once, adapting to the server's `429`s;
    /// one at a time when `nil`.
    ///
    /// Pages arriving out of order are held in memory until the pages before
    /// them are saved, and saved in order (those that arrived together in one transaction): the cache
    /// always holds the list's first pages and the resume token after them, and
    /// a run killed at any moment loses at most the pages it held. When the
    /// list's total says where it ends, no page past the end is asked for;
    /// otherwise pages are asked for one at a time, each while the page before
    /// it is saved, so that at most one request goes past the end. Report
    /// the server's throttles to the same controller (for an `APIClient`, with
    /// its retry callback) so that the sync slows down for them.
    public var concurrency: AdaptiveConcurrency?

    /// A wait for a page at least this long means a source slower than the saves: the pages read are
    /// then saved before the walk waits again, each as it comes. After shorter waits, pages read are
    /// saved together, up to eight in one transaction.
    package var longWait: Duration = .milliseconds(5)

    /// Called when a page failed and is fetched again under the run's `RetryBudget`, with the
    /// page's index, the failure and the wait before the next try; for telling a person.
    public var onPageRetry: (@Sendable (_ index: Int, _ error: any Error, _ wait: Duration) -> Void)?

    /// Whether a walk read one page after another ends by reading the pages again from the last to
    /// the first, adding the items none of them listed; `false` unless set.
    ///
    /// Read in order, a page-number list whose items are removed above the walk's
    /// position while items are added at its end (an oldest-first list) hides the
    /// items that slip onto a page already read, and neither its total nor its ids
    /// tell. Read from its end, the same list hides nothing: an item only ever moves
    /// towards the pages still to be read. The pass costs one request per page, and
    /// is taken only when the list announced a total, the walk reached the end one page
    /// at a time (see ``concurrency``), and no id repeated across pages: a list whose
    /// new items come first moves the other way, and is read again from its first page
    /// instead. A list whose first page lists integer ids in decreasing order is taken
    /// for one whose new items come first, and is not read again. The progress counts the pages in
    /// ``SyncProgress/pagesRefetched`` and the items found in ``SyncProgress/itemsRecovered``.
    /// Offset and range lists need no such pass: their pages are asked for with the item before them.
    public var readsAgainInReverse = false

    /// Whether the list's new items come first (the caller said so, or the cache recorded it); `false` unless set.
    ///
    /// A first page whose integer ids decrease says the same. A page-number list that read its last page
    /// first and moved under the walk is read again from its first page when its new items come first, and
    /// from its last otherwise (see ``run(limits:refresh:retryBudget:onPage:)``).
    public var newestFirst = false

    /// What a second page that lists exactly the first page's items means; ``RepeatedSecondPage/fails`` unless set.
    public var repeatedSecondPage = RepeatedSecondPage.fails

    /// What a second page that lists exactly the first page's items means.
    ///
    /// A server that does not page ignores the page parameter and sends its whole
    /// list for every page. When the style was guessed, that makes the list one
    /// page; when the caller gave the style, it is more likely a wrong parameter.
    public enum RepeatedSecondPage: Hashable, Sendable {
        /// The run stops with ``CacheError/pageRepeated(list:index:)``, which says to check the style.
        case fails
        /// The list is one page: the first page is saved again as the last, under the
        /// list's `style` (stored text; `nil` keeps the list's), and the run
        /// ends with ``SyncProgress/endedOnARepeatedFirstPage`` set.
        case endsTheList(style: String?)
    }

    /// The list as a saved page records it: with the style the source learnt of its server
    /// during the run (``Slippers/PageSource/learntStyle``), so the next run asks as this one ended up asking.
    var recordedList: ListDescriptor {
        guard let learnt = source.learntStyle else { return list }
        var recorded = list
        recorded.style = learnt
        return recorded
    }

    /// Where the run's spans go: a `slippers.list` span per run, and a `slippers.page` span per
    /// page under it; the tracer the program bootstrapped (`InstrumentationSystem.tracer`, a no-op
    /// unless it did) when the sync was made, unless set.
    ///
    /// A span names the list's origin and style kind, a page's index, items and bytes, never a
    /// URL's path or query, a header's value or a credential. An `APIClient`'s request spans nest
    /// under the page spans (the current span travels in the task's `ServiceContext`).
    ///
    /// For example, traces kept in memory by a test:
    ///
    /// ```swift
    /// var sync = ListSync(storage: cache, source: source, list: posts)
    /// sync.tracer = InMemoryTracer()
    /// ```
    public var tracer: any Tracer

    /// How many times a run follows another process that started the list again before it gives up.
    static var maxRestarts: Int { 100 }

    /// Creates a sync of `source` into `list` of any backend: an SQLite file or a PostgreSQL database.
    public init(storage: any SyncStorage & CacheReader, source: Source, list: ListDescriptor) {
        self.storage = storage
        self.source = source
        self.list = list
        self.tracer = InstrumentationSystem.tracer
    }

    /// Fetches and saves pages until the end of the list, `maxPages`, or an error.
    ///
    /// - parameter maxPages: The most pages to fetch in this run; no limit when `nil`.
    /// - parameter refresh: Start again at the first page (a new generation) instead of resuming.
    /// - parameter onPage: Called after each saved page.
    /// - returns: What the run did.
    /// - throws: The source's error, ``CacheError/tokenDidNotAdvance(list:token:)``,
    ///   ``NoStorePageError``, a cache error, or `CancellationError`. Pages saved before the error stay saved.
    @discardableResult
    public func run(
        maxPages: Int? = nil,
        refresh: Bool = false,
        onPage: (SyncProgress) -> Void = { _ in }
    ) async throws -> SyncProgress {
        try await run(limits: SyncRequest.Limits(maxPages: maxPages), refresh: refresh, onPage: onPage)
    }

    /// Fetches and saves pages until the end of the list, a limit, or an error.
    ///
    /// A page that fails with a transient error (see `TransientError`) is
    /// fetched again while `retryBudget` lasts, which starts afresh for every
    /// page: a long run through a flaky network keeps going as long as the list
    /// makes progress. A page that fails is never saved.
    ///
    /// The next page is always asked for while the page before it is saved, so
    /// the cache's time does not add to the network's. When the source is an
    /// `AddressablePageSource` that names the pages' tokens, up to
    /// ``concurrency``'s limit of pages are in flight at once; see ``concurrency``.
    ///
    /// A list can change while it is read: on a page-number or offset list, an
    /// item removed above the walk's position moves the items after it up, and
    /// one of them slips onto a page already read. The walk notices a list that
    /// moved — a page lists ids an earlier page listed, or the announced total
    /// changed between pages or since the run it resumes — and, when the move
    /// may have hidden items (the total changed with no id repeated at the
    /// page boundary, or any move while pages were read out of order), reads
    /// the list once more from its first page, one page after another, adding
    /// to the cached pages the items none of them lists; where that read sees
    /// the list move up across a page boundary, it reads the page before the
    /// boundary again at once. A list that only moved down (new items at its
    /// top) and now holds fewer items than it announces is read again from
    /// its first page until a page whose items are all cached. The progress says what it cost
    /// (``SyncProgress/pagesRefetched``, ``SyncProgress/itemsRecovered``).
    ///
    /// Removals above the walk balanced by insertions below it between two
    /// pages (an oldest-first list) change neither the total nor the ids. So each
    /// page after the first is asked for with the item before it
    /// (`PageRequest.overlapsPreviousPage`), which only offset-like sources give
    /// (offsets, ranges, next URLs that advance an offset): one that is not the last item of the page before says the list
    /// moved; one no cached page lists moved up onto the page already read, joins
    /// the page, and the list is read again as above. A walk of several pages at
    /// once asks for the second page alone; once the source has answered it as
    /// asked, every page after it asks for the item before it. A source that answers a
    /// page without it is asked plainly for the rest of the run, and its last page is
    /// read first as a page-number list's below; so is one whose
    /// first such item is one read earlier (it does not honour the request). A
    /// page-number list read in order is read again from its last page when
    /// ``readsAgainInReverse`` is set. Any other page-number list with a total (one
    /// read several pages at once, or without ``readsAgainInReverse``) reads its last
    /// page right after its first, alone, then the pages between: an item that a move hid then shows as an id repeated at
    /// another boundary, and the list is read again, from its last page to its first
    /// unless its new items come first (``newestFirst``, or its first page gained
    /// items at its top). So every item on the server from the walk's
    /// first request to its last is cached, except when removals above a
    /// page-number walk read in order are balanced by insertions below it and the list is not
    /// read again in reverse; when, on a page-number list that reads its last page first, an item
    /// is removed from the first page before the last page is read, or an insertion and a
    /// removal move items in the list's middle only; or when an item moves up by more than a page
    /// between two requests. Items removed meanwhile stay cached until the list is fetched again.
    ///
    /// - parameter limits: The most pages and items to fetch, and how many pages without a new item end the walk.
    /// - parameter refresh: Start again at the first page (a new generation) instead of resuming.
    /// - parameter retryBudget: How long a failing page is tried again; `RetryBudget.none` to fail at once.
    /// - parameter onPage: Called after each saved page, in the list's order.
    /// - returns: What the run did.
    /// - throws: The source's error, ``CacheError/tokenDidNotAdvance(list:token:)``,
    ///   ``CacheError/pageRepeated(list:index:)``, ``CacheError/listStalled(list:pages:)``,
    ///   a cache error, or `CancellationError`. Pages saved before the error stay saved.
    @discardableResult
    public func run(
        limits: SyncRequest.Limits,
        refresh: Bool = false,
        retryBudget: RetryBudget = .none,
        onPage: (SyncProgress) -> Void = { _ in }
    ) async throws -> SyncProgress {
        try await tracingList(
            "run", counting: { ($0.pagesFetched, $0.itemsFetched) },
            running: {
                try await runTraced(limits: limits, refresh: refresh, retryBudget: retryBudget, onPage: onPage)
            })
    }

    private func runTraced(
        limits: SyncRequest.Limits, refresh: Bool, retryBudget: RetryBudget, onPage: (SyncProgress) -> Void
    ) async throws -> SyncProgress {
        // Open while it runs: a budget kept meanwhile (here or by another process) never evicts it.
        await storage.syncWillStart(list.key)
        do {
            var progress = try await runPages(
                limits: limits, refresh: refresh, retryBudget: retryBudget, onPage: onPage)
            if progress.listMoved, progress.endReached, progress.pagesFetched > 0,
                let cached = try await storage.list(list.key),
                progress.mayHaveMissedItems || cached.isIncomplete
            {
                var again: FirstPageAgain?
                if let first = progress.lastPageFirst, progress.mayHaveMissedItems, !newestFirst {
                    again = try await firstPageAgain(first, &progress, retryBudget: retryBudget)
                }
                if let again, !again.newItemsCameFirst {
                    // Items of a list whose new items do not come first move up: read from its end, none hides.
                    try await readAgainInReverse(
                        &progress, cached: cached, pageCount: again.pageCount, retryBudget: retryBudget)
                } else {
                    try await catchUp(
                        &progress, cached: cached, fromTheTop: !progress.mayHaveMissedItems, firstPage: again?.page,
                        retryBudget: retryBudget)
                }
                onPage(progress)
            }
            if readsAgainInReverse, progress.endReached, progress.pagesFetched > 0, !progress.movedDown,
                concurrency.map({ $0.maximum <= 1 }) ?? true,
                let cached = try await storage.list(list.key)
            {
                try await readAgainInReverse(&progress, cached: cached, retryBudget: retryBudget)
                onPage(progress)
            }
            await storage.syncDidEnd(list.key)
            return progress
        } catch {
            await storage.syncDidEnd(list.key)
            throw error
        }
    }

    private func runPages(
        limits: SyncRequest.Limits, refresh: Bool, retryBudget: RetryBudget, onPage: (SyncProgress) -> Void
    ) async throws -> SyncProgress {
        let cached = try await storage.list(list.key)
        var (index, token, walked) = (0, PageToken?.none, Set<PageToken>())
        if !refresh, let cached, cached.generation > 0 {
            guard !cached.endReached else {
                return SyncProgress(
                    startIndex: cached.currentPageCount, pagesCached: cached.currentPageCount,
                    itemsCachedBefore: cached.itemCount, total: cached.total, endReached: true)
            }
            (index, token) = (cached.nextPageIndex, cached.resumeToken)
            walked = try await storage.walkedTokens(in: list.key, before: index, generation: cached.generation)
        }
        let addressable = source as? any AddressablePageSource
        let concurrency = self.concurrency ?? AdaptiveConcurrency(maximum: 1)
        var start = PageWalk(
            key: list.key, limits: limits, repeatedSecondPage: repeatedSecondPage, addressable: addressable,
            readsAhead: addressable != nil && concurrency.maximum > 1, index: index, token: token, walked: walked,
            cachedTotal: cached?.total, cachedItemCount: cached?.itemCount ?? 0)
        start.longWait = longWait
        return try await withThrowingTaskGroup(of: PagesInFlight.Fetched.self) { group in
            defer { group.cancelAll() }
            // The walk's state lives in the task group's body, where nothing else reaches it.
            var walk = start
            do {
                try await walkPages(&walk, concurrency: concurrency, retryBudget: retryBudget, &group, onPage: onPage)
            } catch {
                // Pages read before the error stay saved, as pages saved before it do.
                if !walk.unsaved.isEmpty { _ = try? await saveUnsaved(in: &walk, onPage: onPage) }
                throw error
            }
            walk.progress.overlapsPages = walk.overlap.asks
            return walk.progress
        }
    }

    /// Walks the pages of ``runPages(limits:refresh:retryBudget:onPage:)``: asks for them, reads
    /// them in order, and saves them, those that arrive together in one transaction.
    private func walkPages(
        _ walk: inout PageWalk, concurrency: AdaptiveConcurrency, retryBudget: RetryBudget,
        _ group: inout ThrowingTaskGroup<PagesInFlight.Fetched, any Error>, onPage: (SyncProgress) -> Void
    ) async throws {
        run: while true {
            walk: while walk.isWithinLimits {
                try Task.checkCancellation()
                ask(&walk, concurrency: concurrency, retryBudget: retryBudget, &group)
                // Pages read are saved before a page asked for with the item before it (checked against the
                // pages saved), before a wait that may be long, and before nothing is left in flight.
                if !walk.unsaved.isEmpty,
                    walk.overlap.askedUnread.contains(walk.readIndex)
                        || (!walk.inFlight.hasArrived(walk.readIndex) && (walk.waitsLong || group.isEmpty))
                {
                    switch try await saveUnsaved(in: &walk, onPage: onPage) {
                    case .saved, .held, .restarted: continue walk
                    case .ended: break walk
                    }
                }
                guard let fetched = walk.inFlight.take(walk.readIndex) else {
                    if group.isEmpty {
                        // A stopping sync ends here, its pages in flight saved: the next run resumes after them.
                        if SyncStop.isRequestedHere { throw CancellationError() }
                        // Nothing in flight: a Retry-After holds the next request back, other syncs sharing
                        // the controller hold every slot, or nothing is left to ask.
                        if let pause = concurrency.pause() {
                            try await Task.sleep(for: pause)
                            continue
                        }
                        guard walk.inFlight.mayAsk(readIndex: walk.readIndex) else { break }
                        try await Task.sleep(for: .milliseconds(5))
                        continue
                    }
                    let waitStarted = ContinuousClock.now
                    guard let fetched = try await group.next() else { break }
                    walk.waitsLong = waitStarted.duration(to: .now) >= walk.longWait
                    walk.progress.pageRetries += fetched.retries
                    if fetched.epoch == walk.inFlight.epoch { walk.progress.lastPageFirst?.note(fetched) }
                    walk.inFlight.receive(fetched)
                    continue
                }
                // A request without validators cannot be answered "not modified"; a source that does has nothing new.
                guard let read = try fetched.result.get().page else { break }
                try Task.checkCancellation()
                let pageIndex = walk.readIndex
                walk.readIndex += 1
                let checked = try await checkingOverlap(read, at: pageIndex, in: &walk, retryBudget: retryBudget)
                let reading = try walk.read(checked, at: pageIndex, keepsNoStorePages: keepsNoStorePages)
                guard case .goesOn(var page) = reading else {
                    if case .endsAsOnePage(let only, let style) = reading {
                        // The first page, read and not saved yet, is saved before it is saved again as the only one.
                        if case .ended = try await saveUnsaved(in: &walk, onPage: onPage) { break walk }
                        var onePage = list
                        if let style { onePage.style = style }
                        let head = try await storage.savePage(only, at: 0, in: onePage)
                        walk.progress.pagesCached = head.currentPageCount
                        walk.progress.endReached = head.endReached
                        walk.progress.endedOnARepeatedFirstPage = true
                        onPage(walk.progress)
                    }
                    break walk
                }
                // Only the first page's answer decides whether the last page is read first.
                let asksItemBeforeNext = pageIndex == 0 && source.asksItemBefore(at: walk.inFlight.token(at: 1) ?? nil)
                walk.settle(
                    &page, at: pageIndex, asksItemBeforeNext: asksItemBeforeNext,
                    readsAgainInReverse: readsAgainInReverse)
                if let next = page.nextToken {
                    // Pages asked for elsewhere than predicted no longer follow their last page.
                    if !walk.inFlight.announce(next: next, after: pageIndex) { walk.progress.lastPageFirst = nil }
                    if walk.inFlight.addressable != nil, walk.inFlight.pageCount == nil {
                        // A source that learnt to name every page (predicted cursors) reads ahead from now on.
                        walk.readsAhead = walk.readsAhead || concurrency.maximum > 1
                        walk.updatePageCount(total: page.total, pages: page.pageCount)
                    }
                    // The next page is on its way while this one is saved.
                    walk.reading = (1, page.items.count)
                    ask(&walk, concurrency: concurrency, retryBudget: retryBudget, &group)
                    walk.reading = (0, 0)
                }
                var saving = try await save(page, at: pageIndex, in: &walk, onPage: onPage)
                if case .saved = saving, !walk.unsaved.isEmpty, walk.mustSaveUnsaved(after: page) {
                    saving = try await saveUnsaved(in: &walk, onPage: onPage)
                }
                switch saving {
                case .saved: if page.isLast, walk.unsaved.isEmpty { break walk }
                case .held, .restarted: continue walk
                case .ended: break walk
                }
            }
            // Pages read and not saved yet are saved before the walk ends.
            guard !walk.unsaved.isEmpty else { return }
            switch try await saveUnsaved(in: &walk, onPage: onPage) {
            case .restarted: continue run
            case .saved, .held, .ended: return
            }
        }
    }
}
