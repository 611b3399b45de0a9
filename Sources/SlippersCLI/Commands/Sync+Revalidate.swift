import Foundation
import SlippersKit
import SlippersStorage
import SlippersStore

extension SlippersCommand.Sync {
    /// Walks the cached list with conditional requests and returns the line that says what changed.
    func runRevalidation(_ plan: SyncPlan, in storage: any CacheStorage) async throws -> String {
        guard let store = storage as? SQLiteCache else {
            throw CacheError.unsupported(operation: "sync --revalidate", location: storage.locationDescription)
        }
        var bar = ProgressBar.isStandardErrorATerminal ? ProgressBar() : nil
        var sync = CollectionSync(storage: store, source: plan.source, collection: plan.collection)
        sync.keepsNoStorePages = keepNoStore
        let found: CollectionSync<PrimedPageSource>.Revalidation
        do {
            found = try await sync.revalidate(maxPages: maxPages) { found in
                bar?.draw(
                    ProgressBar.Figures(
                        pages: found.pagesWalked, items: found.itemsWritten, total: nil, itemsPerSecond: 0))
            }
        } catch {
            bar?.finish()
            throw error
        }
        bar?.finish()
        return Self.revalidationSummary(found, key: plan.collection.key, path: store.path)
    }

    /// The final line of `sync --revalidate`.
    static func revalidationSummary(
        _ found: CollectionSync<PrimedPageSource>.Revalidation, key: String, path: String
    ) -> String {
        var line =
            "revalidated \(Formatting.count(found.pagesWalked, "page")) of \(key) in \(path): "
            + "\(found.unchanged) unchanged, \(found.changed) changed, \(found.new) new, \(found.removed) removed"
        if !found.endReached { line += " — stopped before the end" }
        return line
    }
}
