import Foundation
import Slippers
import SlippersKit
import SlippersStorage
import SlippersStore

extension SlippersCommand.Sync {
    /// Brings a complete list whose new items come first up to date from its first page, and returns
    /// the summary line; `nil` when the list is not complete, or not known to put its new items first.
    ///
    /// `--newest-first` records that it does; a list whose first cached page lists integer ids that
    /// decrease is recorded so without it. When the server then announces another total than the
    /// cache holds (items were removed), the list is revalidated on a file and walked again on
    /// PostgreSQL, so that the removed items leave it.
    func refreshedHead(
        _ plan: SyncPlan, in storage: any CacheStorage, drawsProgress: Bool, retries: () -> Int
    ) async throws -> String? {
        let key = plan.collection.key
        guard !refresh, incremental.request == nil, let stored = plan.stored, stored.endReached,
            stored.currentPageCount > 0
        else { return nil }
        let recorded = try await storage.newestFirst(key)
        var newestFirst = recorded == true || options.newestFirst
        if !newestFirst, recorded == nil, let first = try await storage.page(at: 0, in: key) {
            newestFirst = first.items.idsDecrease
        }
        guard newestFirst else { return nil }
        if recorded != true { try await storage.setNewestFirst(true, for: key) }
        let sync = CollectionSync(storage: storage, source: plan.source, collection: plan.collection)
        let head = try await sync.refreshHead(retryBudget: retrying.pageBudget)
        var line =
            "brought \(key) in \(storage.locationDescription) up to date from its first page: "
            + "\(head.added) new, \(head.updated) changed in \(Formatting.count(head.pagesFetched, "request"))"
        let retried = retries()
        if retried > 0 { line += " (\(Formatting.count(retried, "retry", plural: "retries")))" }
        guard head.totalDiffers, let total = head.total else {
            return line + " — \(Formatting.count(head.itemsCached, "item")) cached"
        }
        line +=
            "; the server announces \(Formatting.count(total, "item")) and the cache held \(head.itemsCached), "
        guard storage is SQLiteCache else {
            // A PostgreSQL cache cannot revalidate: the list is walked again, and the walk's line follows.
            var again = self
            again.options.refresh = true
            let walked = try await again.perform(in: storage, drawsProgress: drawsProgress, onPlanned: { _ in })
            return line + "so it was walked again: " + walked
        }
        return line + "so it was revalidated: " + (try await runRevalidation(plan, in: storage))
    }

    /// Records `--newest-first` with a list a walk saved pages of.
    func recordNewestFirst(_ key: String, in storage: any CacheStorage) async throws {
        guard options.newestFirst, try await storage.collection(key) != nil else { return }
        try await storage.setNewestFirst(true, for: key)
    }
}
