import Foundation
import Slippers
import SlippersStorage

/// Opening a feed at an item: from the cache when it holds the item, else through what the server
/// offers to ask for the items around an item; the items join the list, with gaps where they do
/// not meet.
extension Pager {
    /// Opens the list at the item with `key`, for a notification's deep link or where the reader
    /// stopped: ``State/openedAt`` names it once its rows are published, for a view to scroll to.
    ///
    /// When the cache lists the item, the window grows to its page and is published at once, with
    /// no request; the head is then loaded as ``start()`` does. Otherwise the head is loaded, and
    /// the items around the item are asked for as the server allows: one request where it takes
    /// an "around" parameter (Discord's `around`), else two (the items newer than it, then the
    /// items older than the oldest of those, which start with it: Mastodon's `min_id` and `max_id`).
    /// They join the list where their ids place them, with a gap on each side they do not meet
    /// (``SQLiteCache/placeRun(_:continuation:in:now:)``), and the list is recorded newest first.
    ///
    /// When the item cannot be reached (no way to ask around an item, offline, ids with no order,
    /// an answer without the item), ``State/refresh`` holds a ``PagerError`` of code
    /// ``PagerError/Code/cannotOpenAtItem`` that says why in one line, and the list shows its head.
    public func open(at key: ItemKey) async {
        if !isOpen {
            isOpen = (try? cache.markOpen(list.key)) != nil
        }
        _ = await runFirstPageLoad { pager in try await pager.openNow(at: key) }
    }

    private func openNow(at key: ItemKey) async throws {
        state.openedAt = nil
        if try showCached(key) {
            try await loadFirstPage()
            return
        }
        try await loadFirstPage()
        if try showCached(key) { return }
        guard policy.usesNetwork, !isBackingOff(at: clock()) else {
            return refuseOpening(at: key, because: "it is not cached, and the network cannot be asked now")
        }
        let run: Page<RawItem>
        do {
            run = try await fetchRun(around: key)
        } catch let error as PagerError {
            return refuseOpening(error)
        } catch {
            recordFirstPageFailure(error)
            throw error
        }
        do {
            try cache.placeRun(run.items, continuation: run.nextToken, in: list, now: clock())
        } catch let error as RunPlacementError {
            return refuseOpening(at: key, because: error.description)
        }
        if try cache.newestFirst(list.key) == nil { try cache.setNewestFirst(true, for: list.key) }
        guard try showCached(key, provenance: .network) else {
            return refuseOpening(at: key, because: "the server's answer around it does not hold it")
        }
    }

    /// Grows the window to the page that lists `key` and publishes it, opened at the item; `false`
    /// when no cached page lists it.
    private func showCached(_ key: ItemKey, provenance: Provenance = .cache) throws -> Bool {
        guard policy.readsCache, let index = try cache.pageIndex(ofItem: key, in: list.key) else {
            return false
        }
        try readWindow(pageCount: max(windowPages.count, index + 2, initialWindow))
        state.openedAt = key
        try publishWindow(provenance: state.provenance == .none ? provenance : state.provenance)
        return true
    }

    /// The items around `key`, newest first, with the continuation of the oldest.
    private func fetchRun(around key: ItemKey) async throws -> Page<RawItem> {
        let itemType = String(describing: Item.self)
        func fetch(_ anchor: PageAnchor?) async throws -> Page<RawItem> {
            let request = PageRequest(anchor: anchor)
            guard let page = try await source.fetch(request).page else {
                throw CacheError.tokenDidNotAdvance(list: list.key, token: "\(key)")
            }
            return page
        }
        func holding(_ page: Page<RawItem>) throws -> Page<RawItem> {
            guard page.items.contains(where: { $0.key == key }) else {
                throw PagerError.cannotOpen(
                    at: key, itemType: itemType, reason: "the server's answer around it does not hold it")
            }
            return page
        }
        if source.answers(.around) { return try holding(try await fetch(PageAnchor(.around, key))) }
        guard source.answers(.newerThan), source.answers(.olderThan) else {
            throw PagerError.cannotOpen(
                at: key, itemType: itemType,
                reason: "it is not cached, and the server offers no way to ask for the items around an item "
                    + "(declare HTTPListConfiguration.feedParameters)")
        }
        let newer = try await fetch(PageAnchor(.newerThan, key))
        guard let oldestNewer = newer.items.last?.key else {
            // Nothing is newer: the item heads the list.
            return try holding(try await fetch(nil))
        }
        var older = try holding(try await fetch(PageAnchor(.olderThan, oldestNewer)))
        guard older.items.first?.key == key else {
            throw PagerError.cannotOpen(
                at: key, itemType: itemType,
                reason:
                    "the server's pages around it do not meet (it ignores the \(PageAnchor.Relation.newerThan) parameter)"
            )
        }
        older.items = newer.items + older.items
        return older
    }

    private func refuseOpening(at key: ItemKey, because reason: String) {
        refuseOpening(PagerError.cannotOpen(at: key, itemType: String(describing: Item.self), reason: reason))
    }

    private func refuseOpening(_ error: PagerError) {
        state.refresh = .failed(error)
        publish()
    }
}
