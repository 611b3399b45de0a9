import Foundation
import Slippers
import SlippersStorage

extension Syncer.Run {
    /// Brings a complete list whose new items come first up to date from its first page; `nil`
    /// when the list is not complete, or not known to put its new items first.
    ///
    /// ``SyncRequest/newestFirst`` records that it does; a list whose first cached page lists
    /// integer ids that decrease is recorded so without it. When the server then announces
    /// another total than the cache holds (items were removed), the list is revalidated, so that
    /// the removed items leave it.
    func refreshedHead(_ plan: SyncPlan) async throws -> SyncReport? {
        let key = plan.list.key
        guard !request.refresh, request.incremental == nil, let stored = plan.stored, stored.endReached,
            stored.currentPageCount > 0
        else { return nil }
        let recorded = try await storage.newestFirst(key)
        var newestFirst = recorded == true || request.newestFirst == true
        if !newestFirst, recorded == nil, let first = try await storage.page(at: 0, in: key) {
            newestFirst = first.items.idsDecrease
        }
        guard newestFirst else { return nil }
        if recorded != true { try await storage.setNewestFirst(true, for: key) }
        let sync = ListSync(storage: storage, source: plan.source, list: plan.list)
        let head = try await sync.refreshHead(retryBudget: retryBudget)
        let filled = try await fillGaps(plan, pagesLeft: maxPages.map { $0 - head.pagesFetched })
        let retries = requestRetries.value
        var line =
            "brought \(key) in \(storage.locationDescription) up to date from its first page: "
            + "\(head.added) new, \(head.updated) changed in \(counted(head.pagesFetched, "request"))"
        if filled.pages > 0 {
            line += "; its gaps filled with \(counted(filled.items, "item")) in \(counted(filled.pages, "request"))"
        }
        if retries > 0 { line += " (\(counted(retries, "retry", plural: "retries")))" }
        var report = SyncReport(
            kind: .headRefreshed, list: key, pagesFetched: head.pagesFetched + filled.pages,
            itemsFetched: head.added + head.updated + filled.items,
            itemsCached: head.itemsCached + filled.items, endReached: true, retries: retries, summary: line)
        guard head.totalDiffers, let total = head.total else {
            report.summary += " — \(counted(head.itemsCached, "item")) cached"
            return report
        }
        line += "; the server announces \(counted(total, "item")) and the cache held \(head.itemsCached), "
        let then = try await revalidate(plan)
        line += "so it was revalidated: "
        report.summary = line + then.summary
        report.pagesFetched += then.pagesFetched
        report.itemsCached = then.itemsCached
        report.endReached = then.endReached
        return report
    }
}
