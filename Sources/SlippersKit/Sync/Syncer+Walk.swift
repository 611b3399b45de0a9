import Foundation
import Slippers
import SlippersNetworking
import SlippersStorage

extension Syncer.Run {
    /// Walks the list from its committed pages; on a ``SharedListStorage``, under its lease and
    /// from the pages other workers fetched ahead.
    func walk(_ plan: SyncPlan) async throws -> SyncReport {
        let key = plan.list.key
        guard let shared = storage as? any SharedListStorage else {
            var progress = try await walk(plan, source: plan.source)
            try await recordNewestFirst(key)
            if progress.endReached {
                let filled = try await fillGaps(plan, pagesLeft: maxPages.map { $0 - progress.pagesFetched })
                progress.pagesFetched += filled.pages
                progress.itemsFetched += filled.items
            }
            return try await report(progress, plan: plan)
        }
        let onEvent = syncer.onEvent
        let onWait: @Sendable () -> Void = { onEvent(.waitingForLease(list: key)) }
        let synced = try await shared.walkingSharedList(
            key, fingerprint: Syncer.fingerprint(url: url, style: plan.list.style, headers: headers),
            source: plan.source, plannedStyle: plan.resumesStoredStyle ? plan.stored?.style : plan.list.style,
            refresh: request.refresh, concurrency: concurrency.maximum, onWait: onWait
        ) { source in
            try await walk(plan, source: source)
        }
        try await recordNewestFirst(key)
        var report = try await report(synced.result, plan: plan)
        if synced.pagesFetchedByOthers > 0 {
            report.summary += " (\(counted(synced.pagesFetchedByOthers, "page")) fetched by other workers)"
        }
        if synced.pagesFetchedAhead > 0 {
            report.summary += " (\(counted(synced.pagesFetchedAhead, "page")) fetched ahead for another worker)"
        }
        return report
    }

    /// Walks the list from `source` into the storage.
    private func walk<Source: PageSource>(_ plan: SyncPlan, source: Source) async throws -> SyncProgress
    where Source.Item == RawItem {
        var sync = ListSync(storage: storage, source: source, list: plan.list)
        sync.keepsNoStorePages = request.keepsNoStorePages
        sync.concurrency = concurrency
        let recorded = try await storage.newestFirst(plan.list.key)
        sync.newestFirst = request.newestFirst == true || recorded == true
        // On a shared cache, workers waiting for the list fetch its pages ahead: the walk is not one page at a time.
        if syncer.readsAgainInReverse, !(storage is any SharedListStorage) {
            sync.readsAgainInReverse = plan.readsAgainInReverse(
                concurrency: concurrency.maximum, newestFirst: sync.newestFirst)
        }
        switch plan.repeatedSecondPage {
        case .fails: sync.repeatedSecondPage = .fails
        case .endsTheList(let style): sync.repeatedSecondPage = .endsTheList(style: style)
        }
        let onEvent = syncer.onEvent
        sync.onPageRetry = { onEvent(.pageRetry(index: $0, error: $1, wait: $2)) }
        let limits = SyncRequest.Limits(maxPages: maxPages, maxItems: maxItems, stallLimit: stallLimit)
        let progress = try await repeatedPageTold(plan) {
            try await sync.run(limits: limits, refresh: request.refresh, retryBudget: retryBudget) {
                onEvent(.progress($0))
            }
        }
        return progress
    }

    /// Runs a walk; a page 2 that repeats page 1 of a list whose first response showed that it
    /// pages is told with what it showed and the options that describe the list.
    private func repeatedPageTold<Result>(_ plan: SyncPlan, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as CacheError where error.code == .pageRepeated && error.pageIndex == 1 {
            // Only a way of asking that detection chose is in doubt: a next URL or cursor is the server's own.
            guard plan.style.asksByInference, let detection = plan.detection, !detection.hints.isEmpty else {
                throw error
            }
            throw SyncFailure.pageRepeatedDespiteHints(
                list: error.list ?? "", hints: detection.hints, style: plan.style, tried: detection.tried)
        } catch let error as CacheError where error.code == .listStalled {
            // Pages that bring no id not listed yet, the ids a guess: the guess is what is wrong.
            guard let guessed = plan.detection?.guessedIDField, guessed == plan.style.idField else { throw error }
            let cached = try await storage.list(plan.list.key)
            var failure = IncompleteList(
                list: plan.list.key, announced: cached?.total ?? 0, stored: cached?.itemCount ?? 0,
                pages: cached?.currentPageCount ?? 0)
            failure.guessedIDField = guessed
            failure.repeatedItems = max(1, error.pageCount ?? 1)
            throw failure
        }
    }

    /// Records that the list's new items come first, when the request says so, with a list a walk saved pages of.
    func recordNewestFirst(_ key: String) async throws {
        guard request.newestFirst == true, try await storage.list(key) != nil else { return }
        try await storage.setNewestFirst(true, for: key)
    }

    /// The report of a walk, checked against what the server announced.
    private func report(_ progress: SyncProgress, plan: SyncPlan) async throws -> SyncReport {
        let key = plan.list.key
        let cached = try await storage.list(key)
        let retries = requestRetries.value + progress.pageRetries
        let line = summary(progress, key: key, cachedItems: cached?.itemCount ?? 0, retries: retries)
        let report = SyncReport(
            kind: .walked, list: key, pagesFetched: progress.pagesFetched, itemsFetched: progress.itemsFetched,
            itemsCached: cached?.itemCount ?? 0, endReached: progress.endReached, retries: retries, summary: line)
        guard progress.endReached, let cached else { return report }
        var shortfall = IncompleteList(
            list: key, announced: cached.total ?? 0, stored: cached.itemCount, pages: cached.currentPageCount,
            firstPageItems: plan.detection?.itemCount, style: plan.style, repeatedItems: progress.repeatedItems,
            summary: progress.pagesFetched > 0 ? line : nil)
        // A list that announced its pages, not its items: short of them is short of the list.
        if let pages = progress.announcedPageCount, cached.currentPageCount < pages {
            shortfall.announcedPages = pages
            throw shortfall
        }
        if cached.isIncomplete { throw shortfall }
        // An id taken by its values alone whose values came back: items were stored over one another.
        if progress.repeatedItems > 0, let guessed = plan.detection?.guessedIDField, guessed == plan.style.idField {
            shortfall.guessedIDField = guessed
            throw shortfall
        }
        if cached.gapCount > 0 {
            shortfall.gaps = cached.gapCount
            throw shortfall
        }
        return report
    }

    /// The final line: what this run fetched, where it started, whether the list is complete, and the retries.
    private func summary(_ progress: SyncProgress, key: String, cachedItems: Int, retries: Int) -> String {
        let line = summaryWithoutRetries(progress, key: key, cachedItems: cachedItems)
        return retries == 0 ? line : line + " (\(counted(retries, "retry", plural: "retries")))"
    }

    private func summaryWithoutRetries(_ progress: SyncProgress, key: String, cachedItems: Int) -> String {
        let path = storage.locationDescription
        if progress.pagesFetched == 0, progress.endReached {
            return "\(key) is complete in \(path) (\(counted(progress.pagesCached, "page")), "
                + "\(counted(cachedItems, "item"))); nothing fetched, use --refresh to fetch it again"
        }
        var line = "synced \(counted(progress.itemsFetched, "item")) in \(counted(progress.pagesFetched, "page"))"
        if progress.resumed { line += " (resumed after \(counted(progress.startIndex, "cached page")))" }
        if progress.repeatedItems > 0 { line += " (\(counted(progress.repeatedItems, "repeated id")) stored once)" }
        if progress.listMoved {
            line += " (the list changed while it was read"
            if progress.pagesRefetched > 0 {
                line +=
                    "; read \(counted(progress.pagesRefetched, "page")) again and found "
                    + "\(counted(progress.itemsRecovered, "item")) not cached"
            }
            line += ")"
        }
        line += " of \(key) into \(path)"
        if progress.endedOnARepeatedFirstPage {
            line +=
                " — end reached, \(counted(cachedItems, "item")) cached; page 2 repeated page 1 "
                + "exactly, so the list is one page (as --style singlePage)"
        } else if progress.endReached {
            line += " — end reached, \(counted(cachedItems, "item")) cached"
        } else if let maxPages, progress.pagesFetched >= maxPages {
            line += " — stopped after --max-pages \(maxPages); run again to continue"
        } else if let maxItems, progress.itemsFetched >= maxItems {
            line += " — stopped after --max-items \(maxItems); run again to continue"
        } else {
            line += " — stopped before the end; run again to continue"
        }
        return line
    }
}

extension Syncer {
    /// The digest of how a list's pages are asked for: its URL, its style and its headers.
    /// Never a credential: a digest of it.
    static func fingerprint(url: URL, style: String?, headers: [String: String]) -> String {
        let sent = headers.map { "\($0.key.lowercased()): \($0.value)" }.sorted().joined(separator: "\n")
        let parts = ["url": url.absoluteString, "style": style ?? "", "headers": sent]
        return PageCaching.varyKey(for: Array(parts.keys)) { parts[$0] } ?? ""
    }
}
