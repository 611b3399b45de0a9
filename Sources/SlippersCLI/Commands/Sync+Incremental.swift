import Foundation
import Slippers
import SlippersKit
import SlippersPostgres
import SlippersStorage

extension SlippersCommand.Sync {
    /// Syncs the list incrementally (`--incremental`) and returns the line that says what the run did.
    ///
    /// On PostgreSQL one process at a time runs a list: the others wait for its lease.
    func runIncremental(
        _ plan: SyncPlan, settings: SyncRequest.Incremental, in storage: any CacheStorage,
        concurrency: AdaptiveConcurrency, notice: RetryNotice?, drawsProgress: Bool, retries: () -> Int
    ) async throws -> String {
        var sync = plan.incrementalSync(
            storage: storage, settings: IncrementalSync.Settings(settings), sinceParameter: settings.sinceParameter)
        sync.keepsNoStorePages = keepNoStore
        sync.concurrency = concurrency
        if let notice { sync.onPageRetry = { notice.pageRetry(index: $0, error: $1, wait: $2) } }
        let limits = CollectionSync<PrimedPageSource>.Limits(
            maxPages: maxPages, maxItems: maxItems, stallLimit: stallLimit)
        var bar = drawsProgress && ProgressBar.isStandardErrorATerminal ? ProgressBar() : nil
        let budget = retrying.pageBudget
        let key = plan.collection.key
        let outcome: IncrementalSync<PrimedPageSource>.Outcome
        do {
            let run = {
                try await sync.run(limits: limits, refresh: refresh, retryBudget: budget) { progress in
                    bar?.draw(
                        ProgressBar.Figures(
                            pages: progress.pagesFetched, items: progress.itemsFetched, total: progress.total,
                            itemsPerSecond: 0))
                }
            }
            if let cache = storage as? PostgresCache {
                let onWait: @Sendable () -> Void = {
                    StandardError.write("waiting for another worker syncing \(key.shortenedForErrors)")
                }
                outcome = try await cache.withListLease(key, onWait: onWait, run)
            } else {
                outcome = try await run()
            }
        } catch {
            bar?.finish()
            throw error
        }
        bar?.finish()
        let cached = try await storage.collection(key)
        let retries = retries() + outcome.progress.pageRetries
        let line = Self.incrementalSummary(
            outcome, field: settings.field, key: key, location: storage.locationDescription,
            cachedItems: cached?.itemCount ?? 0)
        let told = retries == 0 ? line : line + " (\(Formatting.count(retries, "retry", plural: "retries")))"
        if outcome.isComplete, outcome.watermark == nil, let cached, cached.itemCount > 0 {
            throw CommandFailure.noWatermarkField(collection: key, field: settings.field, items: cached.itemCount)
        }
        // A whole list that ended short of what its server announced is not an exact copy.
        if outcome.phase == .wholeList, outcome.isComplete, let cached, cached.isIncomplete {
            throw IncompleteList(
                collection: key, announced: cached.total ?? 0, stored: cached.itemCount,
                pages: cached.currentPageCount, firstPageItems: plan.detection?.itemCount, style: plan.style,
                repeatedItems: outcome.progress.repeatedItems, summary: told)
        }
        return told
    }

    /// The final line of an incremental run: what it asked for, what joined or changed, and the watermark.
    static func incrementalSummary(
        _ outcome: IncrementalSync<PrimedPageSource>.Outcome, field: String, key: String, location: String,
        cachedItems: Int
    ) -> String {
        let progress = outcome.progress
        let watermark = "watermark \(field) = \(outcome.watermark ?? "none")"
        let pages = Formatting.count(progress.pagesFetched, "page")
        switch (outcome.phase, outcome.isComplete) {
        case (.wholeList, true):
            let since = outcome.since.map { " changed since \($0)" } ?? ""
            if progress.pagesFetched == 0 {
                return "\(key) is complete in \(location) (\(Formatting.count(cachedItems, "item"))); "
                    + "\(watermark), taken from its items"
            }
            return "synced \(Formatting.count(outcome.newItems, "item"))\(since) in \(pages) of \(key) into "
                + "\(location) — end reached, \(Formatting.count(cachedItems, "item")) cached; \(watermark)"
        case (.wholeList, false):
            return "synced \(Formatting.count(progress.itemsFetched, "item")) in \(pages) of \(key) into "
                + "\(location) — stopped before the end; run again to continue (no watermark until the list is complete)"
        case (.changes, true):
            return "synced the changes since \(outcome.since ?? "") of \(key) into \(location) in \(pages): "
                + "\(outcome.newItems) new, \(outcome.updatedItems) updated — "
                + "\(Formatting.count(cachedItems, "item")) cached; \(watermark)"
        case (.changes, false) where outcome.listMovedWhileRead:
            return "synced the changes since \(outcome.since ?? "") of \(key) into \(location) in \(pages): "
                + "\(outcome.newItems) new, \(outcome.updatedItems) updated — "
                + "\(Formatting.count(cachedItems, "item")) cached; the changes moved while read, so the "
                + "\(watermark) is kept: run again to catch up"
        case (.changes, false):
            return "synced \(Formatting.count(progress.itemsFetched, "item")) changed since \(outcome.since ?? "") "
                + "in \(pages) of \(key) into \(location) — stopped before the end; run again to continue "
                + "(\(watermark) kept)"
        }
    }
}
