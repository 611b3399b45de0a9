import Foundation
import Slippers

/// A pager that follows the cache: what other lists, syncs and processes write reaches its snapshots.
extension Pager {
    /// Follows the cache until the calling task is cancelled: after every change of the file
    /// (a local write through another list, a page saved by a sync or by another process, an
    /// eviction) the window is read again from the cache, and a snapshot is published when
    /// what it shows changed. No request is sent.
    ///
    /// Changes through this pager's cache arrive at once; other processes' within `interval`
    /// (see ``SQLiteCache/changes(pollingEvery:)``). While a load of this pager runs, its own
    /// publication comes first. `PagedList` follows its pager while it is subscribed.
    ///
    /// For example:
    ///
    /// ```swift
    /// let following = Task { await pager.followCache() }
    /// // … later
    /// following.cancel()
    /// ```
    public func followCache(pollingEvery interval: Duration = .milliseconds(50)) async {
        let changes = cache.changes(pollingEvery: interval)
        // What changed between the window's last read and the start of the watch.
        await reloadWindowAfterLoads()
        for await _ in changes {
            await reloadWindowAfterLoads()
        }
    }

    /// Reads the window again once no load of this pager runs (a load publishes what it read).
    private func reloadWindowAfterLoads() async {
        while !reloadWindowFromCache(), !Task.isCancelled {
            if let refreshTask { await refreshTask.value }
            if let appendTask { await appendTask.value }
            // The load's caller clears its task when it resumes: let it, instead of spinning on the actor.
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Reads the window's pages again and publishes them if they changed; `false` when a load runs,
    /// and nothing was read.
    @discardableResult
    func reloadWindowFromCache() -> Bool {
        guard refreshTask == nil, appendTask == nil else { return false }
        guard windowHead != nil, !isEphemeral else { return true }
        let (pages, head) = (windowPages, windowHead)
        do {
            try readWindow(pageCount: max(windowPages.count, 1))
        } catch {
            (windowPages, windowHead) = (pages, head)
            return true
        }
        guard windowPages != pages || windowHead != head else { return true }
        if windowHead == nil {
            // The list was evicted: nothing of it is cached any more.
            state.items = []
            state.pages = []
            state.pageProvenances = []
            state.endReached = false
            decodedItems = [:]
            publish()
            return true
        }
        try? publishWindow(provenance: state.provenance)
        return true
    }
}
