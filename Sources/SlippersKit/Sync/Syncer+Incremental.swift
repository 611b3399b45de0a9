import Foundation
import Slippers
import SlippersStorage

extension Syncer.Run {
    /// Syncs the list from its watermark (``SyncRequest/incremental``); on a
    /// ``SharedListStorage`` one process at a time runs a list: the others wait for its lease.
    func incremental(_ plan: SyncPlan, settings: SyncRequest.Incremental) async throws -> SyncReport {
        var sync = plan.incrementalSync(
            storage: storage, settings: IncrementalSync.Settings(settings), sinceParameter: settings.sinceParameter)
        sync.keepsNoStorePages = request.keepsNoStorePages
        sync.concurrency = concurrency
        let onEvent = syncer.onEvent
        sync.onPageRetry = { onEvent(.pageRetry(index: $0, error: $1, wait: $2)) }
        let limits = SyncRequest.Limits(maxPages: maxPages, maxItems: maxItems, stallLimit: stallLimit)
        let (budget, refresh) = (retryBudget, request.refresh)
        let key = plan.list.key
        let run = {
            try await sync.run(limits: limits, refresh: refresh, retryBudget: budget) { onEvent(.progress($0)) }
        }
        let outcome: IncrementalSync<PrimedPageSource>.Outcome
        if let shared = storage as? any SharedListStorage {
            outcome = try await shared.runningUnderListLease(
                key, onWait: { onEvent(.waitingForLease(list: key)) }, run)
        } else {
            outcome = try await run()
        }
        let cached = try await storage.list(key)
        let retries = requestRetries.value + outcome.progress.pageRetries
        let line = Self.incrementalSummary(
            outcome, field: settings.field, key: key, location: storage.locationDescription,
            cachedItems: cached?.itemCount ?? 0)
        let told = retries == 0 ? line : line + " (\(counted(retries, "retry", plural: "retries")))"
        if outcome.isComplete, outcome.watermark == nil, let cached, cached.itemCount > 0 {
            throw SyncFailure.noWatermarkField(list: key, field: settings.field, items: cached.itemCount)
        }
        // A whole list that ended short of what its server announced is not an exact copy.
        if outcome.phase == .wholeList, outcome.isComplete, let cached, cached.isIncomplete {
            throw IncompleteList(
                list: key, announced: cached.total ?? 0, stored: cached.itemCount,
                pages: cached.currentPageCount, firstPageItems: plan.detection?.itemCount, style: plan.style,
                repeatedItems: outcome.progress.repeatedItems, summary: told)
        }
        return SyncReport(
            kind: .incremental, list: key, pagesFetched: outcome.progress.pagesFetched,
            itemsFetched: outcome.progress.itemsFetched, itemsCached: cached?.itemCount ?? 0,
            endReached: outcome.isComplete, retries: retries, summary: told)
    }

    /// The final line of an incremental run: what it asked for, what joined or changed, and the watermark.
    static func incrementalSummary(
        _ outcome: IncrementalSync<PrimedPageSource>.Outcome, field: String, key: String, location: String,
        cachedItems: Int
    ) -> String {
        let progress = outcome.progress
        let watermark = "watermark \(field) = \(outcome.watermark ?? "none")"
        let pages = counted(progress.pagesFetched, "page")
        switch (outcome.phase, outcome.isComplete) {
        case (.wholeList, true):
            let since = outcome.since.map { " changed since \($0)" } ?? ""
            if progress.pagesFetched == 0 {
                return "\(key) is complete in \(location) (\(counted(cachedItems, "item"))); "
                    + "\(watermark), taken from its items"
            }
            return "synced \(counted(outcome.newItems, "item"))\(since) in \(pages) of \(key) into "
                + "\(location) — end reached, \(counted(cachedItems, "item")) cached; \(watermark)"
        case (.wholeList, false):
            return "synced \(counted(progress.itemsFetched, "item")) in \(pages) of \(key) into "
                + "\(location) — stopped before the end; run again to continue (no watermark until the list is complete)"
        case (.changes, true):
            return "synced the changes since \(outcome.since ?? "") of \(key) into \(location) in \(pages): "
                + "\(outcome.newItems) new, \(outcome.updatedItems) updated — "
                + "\(counted(cachedItems, "item")) cached; \(watermark)"
        case (.changes, false) where outcome.listMovedWhileRead:
            return "synced the changes since \(outcome.since ?? "") of \(key) into \(location) in \(pages): "
                + "\(outcome.newItems) new, \(outcome.updatedItems) updated — "
                + "\(counted(cachedItems, "item")) cached; the changes moved while read, so the "
                + "\(watermark) is kept: run again to catch up"
        case (.changes, false):
            return "synced \(counted(progress.itemsFetched, "item")) changed since \(outcome.since ?? "") "
                + "in \(pages) of \(key) into \(location) — stopped before the end; run again to continue "
                + "(\(watermark) kept)"
        }
    }
}
