import Slippers

extension ListSync {
    /// Reads a list that moved under its walk again, page after page, and adds the items no cached page lists.
    ///
    /// Read in order, a list hides an item only where it moved up across a page
    /// boundary between two pages: the total changed and no id repeated there.
    /// The page before such a boundary is read once more at once, where the
    /// items that slipped onto it still are. Where the walk asked for the item
    /// before each page (``SyncProgress/overlapsPages``), the read does too: an item
    /// before a page that is not the last of the page before marks such a
    /// boundary whatever the total says, and joins the items found when no cached page lists it.
    ///
    /// With `fromTheTop`, the read stops at the first page after the first
    /// whose items are all cached: a list that moved down (items came at its
    /// top) holds its new items there, and only there.
    ///
    /// An item found on the page at `index` joins the cached page there (the
    /// second page for the first, whose saving would start a new generation),
    /// after the items it holds; the cached pages keep their tokens, so the
    /// list stays complete and resumable.
    ///
    /// - parameter firstPage: The first page, when it was just read again: the read starts from it.
    /// - throws: The source's error, a cache error, or `CancellationError`. Items added before the error stay.
    func catchUp(
        _ progress: inout SyncProgress, cached: ListInfo, fromTheTop: Bool, firstPage: Page<RawItem>? = nil,
        retryBudget: RetryBudget
    ) async throws {
        guard cached.endReached, cached.currentPageCount > 0 else { return }
        let lastIndex = cached.currentPageCount - 1
        let addressable = source as? any AddressablePageSource
        var token: PageToken?
        var walked: Set<PageToken> = []
        var index = 0
        var last: (keys: Set<ItemKey>, lastKey: ItemKey?, total: Int?, token: PageToken?) = ([], nil, nil, nil)
        var pageItemCount: Int?
        // A list that grew has pages past the cached end: their items join the last cached page.
        while index <= lastIndex + 2 {
            let overlaps = progress.overlapsPages && index > 0
            let fetched =
                if index == 0, let firstPage {
                    firstPage
                } else {
                    try await fetchAgain(
                        token, index: index, overlapping: overlaps, retryBudget: retryBudget, &progress)
                }
            guard var page = fetched else { break }
            let keys = Set(page.items.map(\.key))
            let lastKey = page.items.last?.key
            var movedUp = false
            if let before = page.itemBefore {
                page.itemBefore = nil
                // An item the page before lists moved down: the ids repeated tell it, and it hid nothing.
                movedUp = last.lastKey.map { $0 != before.key && !last.keys.contains(before.key) } ?? false
                if movedUp { page.items.insert(before, at: 0) }
            }
            let found = try await addUnlisted(page, foundAt: index, lastIndex: lastIndex)
            progress.itemsRecovered += found
            if fromTheTop, index > 0, found == 0 { break }
            let totalChanged = page.total != nil && last.total != nil && page.total != last.total
            if index > 0, movedUp || (totalChanged && keys.isDisjoint(with: last.keys)),
                let before = try await fetchAgain(
                    last.token, index: index - 1, overlapping: false, retryBudget: retryBudget, &progress)
            {
                progress.itemsRecovered += try await addUnlisted(before, foundAt: index, lastIndex: lastIndex)
            }
            last = (keys, lastKey, page.total ?? last.total, token)

            guard let next = page.nextToken, !page.items.isEmpty || index == 0 else { break }
            if let addressable, let total = page.total {
                if pageItemCount == nil, !page.items.isEmpty { pageItemCount = page.items.count }
                if let pageItemCount,
                    let pages = addressable.pageCount(forTotal: total, pageItemCount: pageItemCount),
                    index + 1 >= pages
                {
                    break
                }
            }
            guard walked.insert(next).inserted else { break }
            token = next
            index += 1
        }
    }

    /// Fetches the page at `index` again under the run's retry budget, counting it; `nil` for a "not modified".
    func fetchAgain(
        _ token: PageToken?, index: Int, overlapping: Bool, retryBudget: RetryBudget, _ progress: inout SyncProgress
    ) async throws -> Page<RawItem>? {
        let fetched = try await fetchPage(token, index: index, overlapping: overlapping, retryBudget: retryBudget)
        progress.pageRetries += fetched.retries
        progress.pagesRefetched += 1
        return fetched.result.page
    }

    /// Adds to a cached page the items of `page` that no cached page of the list lists, with the
    /// total `page` announced.
    ///
    /// - returns: The number of items added.
    func addUnlisted(_ page: Page<RawItem>, foundAt index: Int, lastIndex: Int) async throws -> Int {
        let key = list.key
        let items = page.items
        let keys = Set(items.map(\.key))
        guard !keys.isEmpty, try await storage.unlistedCount(of: keys, before: .max, in: key) > 0 else { return 0 }
        var unlisted: [RawItem] = []
        var met: Set<ItemKey> = []
        for item in items where met.insert(item.key).inserted {
            if try await storage.unlistedCount(of: [item.key], before: .max, in: key) > 0 { unlisted.append(item) }
        }
        let target = index == 0 ? min(1, lastIndex) : min(index, lastIndex)
        guard !unlisted.isEmpty, let stored = try await storage.page(at: target, in: key) else { return 0 }
        var merged = stored.page
        merged.items = stored.items + unlisted
        merged.total = page.total
        _ = try await storage.savePage(merged, at: target, in: recordedList)
        return unlisted.count
    }
}
