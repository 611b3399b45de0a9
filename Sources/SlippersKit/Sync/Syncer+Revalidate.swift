import Foundation
import Slippers
import SlippersStorage

extension Syncer.Run {
    /// Walks the cached list with conditional requests (``SyncRequest/revalidate``), rewriting only the pages that changed.
    func revalidate(_ plan: SyncPlan) async throws -> SyncReport {
        var sync = ListSync(storage: storage, source: plan.source, list: plan.list)
        sync.keepsNoStorePages = request.keepsNoStorePages
        let onEvent = syncer.onEvent
        let found = try await sync.revalidate(maxPages: maxPages) { found in
            onEvent(
                .progress(
                    SyncProgress(
                        pagesFetched: found.pagesWalked, itemsFetched: found.itemsWritten,
                        pagesCached: found.pagesWalked)))
        }
        let key = plan.list.key
        var line =
            "revalidated \(counted(found.pagesWalked, "page")) of \(key) in \(storage.locationDescription): "
            + "\(found.unchanged) unchanged, \(found.changed) changed, \(found.new) new, \(found.removed) removed"
        if !found.endReached { line += " — stopped before the end" }
        let cached = try await storage.list(key)
        return SyncReport(
            kind: .revalidated, list: key, pagesFetched: found.pagesWalked, itemsFetched: found.itemsWritten,
            itemsCached: cached?.itemCount ?? 0, endReached: found.endReached, retries: requestRetries.value,
            summary: line)
    }
}
