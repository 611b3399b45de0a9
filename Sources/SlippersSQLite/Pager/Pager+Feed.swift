import Foundation
import Slippers
import SlippersStorage

/// A feed: a list read from its head whose new items come first, kept as runs of items with gaps
/// between them (``State/gaps``).
extension Pager {
    /// Whether the list is a feed not known complete, shown: its head is merged at its top, and a
    /// first page that reaches no cached item leaves a gap.
    func isFeedWithAHead() throws -> Bool {
        guard policy.readsCache, let windowHead, !windowHead.endReached, windowHead.generation > 0 else {
            return false
        }
        return try cache.newestFirst(list.key) == true
    }

    /// Records the list newest first when its first page shows it is a feed, unless something was
    /// recorded already: its server asks for the next page by the id of the page's last item
    /// (`max_id`, `before`: ``Slippers/PageSource/answers(_:)``), and its ids fall down the page.
    func recordFeed(ifShownBy page: Page<RawItem>) {
        guard source.answers(.olderThan), let first = page.items.first?.key, let last = page.items.last?.key,
            first.isNewer(than: last) == true
        else { return }
        // A list not kept (a page not to store) has nothing to record, and says nothing.
        do {
            if try cache.newestFirst(list.key) == nil { try cache.setNewestFirst(true, for: list.key) }
        } catch {}
    }

    /// Fetches the feed's first page and merges it at the top of the cached list: the items read
    /// before stay, and a gap below the new items records how to continue them when the page did
    /// not reach a cached item.
    func refreshFeedHead() async throws {
        state.refresh = .loading
        publish()
        do {
            let result = try await source.fetch(PageRequest(token: nil, retriesTransientFailures: state.items.isEmpty))
            try Task.checkCancellation()
            if let page = result.page {
                if page.caching.cacheControl.noStore && !keepsNoStorePages {
                    // A page not to keep cannot join the cached runs: it is shown as a list of its own.
                    state.refresh = .idle
                    try await revalidateFirstPage()
                    return
                }
                try cache.mergeFeedHead(page, in: list, now: clock())
            }
            verifiedThisSession.insert(0)
            state.refresh = .idle
            state.append = .idle
            clearBackoff()
            try readWindow(pageCount: max(windowPages.count, 1))
            try publishWindow(provenance: .network)
        } catch {
            recordFirstPageFailure(error)
            throw error
        }
    }

    /// Fills a gap of the feed by one page, the first gap unless `id` names another; the window is
    /// shown again with the page's items in place.
    ///
    /// From above (the default), the page is the one after the run above the gap. From below
    /// (`fromBelow`, for a reader scrolling up toward the gap), it is the items just newer than the
    /// item below the gap (Mastodon's `min_id`, Discord's `after`), when the server offers that
    /// (``Slippers/PageSource/answers(_:)``); otherwise the gap fills from above.
    ///
    /// The page's items up to the first one the list holds take the gap's place; that item (or
    /// the list's end) closes the gap, otherwise the gap moves below them. A gap of G items closes
    /// after ⌈G / page size⌉ requests, or one more when the last page ends exactly at the gap.
    /// Coalesced with the other loads of later pages; a failure is recorded in ``State/append``
    /// and starts the backoff, as a failed next page does.
    public func fillGap(_ id: Int64? = nil, fromBelow: Bool = false) async {
        if let refreshTask { await refreshTask.value }
        await runAppendLoad { pager in await pager.fillGapNow(id, fromBelow: fromBelow) }
    }

    private func fillGapNow(_ id: Int64?, fromBelow: Bool) async {
        guard let gap = windowGaps.first(where: { id == nil || $0.id == id }) else { return }
        guard policy.usesNetwork, !isBackingOff(at: clock()) else {
            reportNoWayForward(toPageAt: gap.pageIndex)
            return
        }
        state.append = .loading
        publish()
        do {
            let below = fromBelow && source.answers(.newerThan) ? gap.keyBelow : nil
            let request = below.map { PageRequest(anchor: PageAnchor(.newerThan, $0)) } ?? PageRequest(token: gap.token)
            guard let page = try await source.fetch(request).page else {
                throw CacheError.tokenDidNotAdvance(list: list.key, token: gap.token.rawValue)
            }
            try Task.checkCancellation()
            if below != nil {
                try cache.fillGapFromBelow(gap, with: page, in: list, now: clock())
            } else {
                try cache.fillGap(gap, with: page, in: list, now: clock())
            }
            state.append = .idle
            clearBackoff()
            try readWindow(pageCount: max(windowPages.count, 1))
            try publishWindow(provenance: state.provenance == .none ? .network : state.provenance)
        } catch {
            recordAppendFailure(error)
        }
    }
}
