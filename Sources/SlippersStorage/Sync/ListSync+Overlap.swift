import Slippers

extension ListSync {
    /// How a walk asks for the item before each page after the first (``Slippers/PageRequest/overlapsPreviousPage``).
    struct Overlap {
        /// Whether pages are asked for with it: until the source answers a page without it.
        var asks = true
        /// Whether an item before a page was the last item of the page before: the server honours the request.
        var trusted = false
        /// Whether the first item before a page that was checked named an item read earlier than the
        /// last one: the server may not honour the request, and its pages are asked for plainly.
        var distrusted = false
        /// The pages asked for with the item before them and not read yet.
        var askedUnread: Set<Int> = []
    }

    /// The page to read on, once the item before it is checked against `expected`, the last item of the page before.
    ///
    /// The item before a page is the last of the page before, unless the list
    /// moved between the two requests. An item not listed yet moved up onto the
    /// page already read: it joins this page, and the list is read again once
    /// the walk ends, since more may have. An item already listed moved down: the
    /// ids repeated on the page tell the same. An item already listed on the first
    /// check, before the server ever answered the expected one, rather says that
    /// the server does not honour the request: the page and the pages after it are
    /// asked for plainly.
    func checkingOverlap(
        _ page: Page<RawItem>, at index: Int, after expected: ItemKey?, overlap: inout Overlap,
        progress: inout SyncProgress, isListed: (ItemKey) async throws -> Bool, readsAhead: Bool,
        retryBudget: RetryBudget
    ) async throws -> Page<RawItem> {
        var page = page
        guard let before = page.itemBefore else {
            // A source that answers without it cannot give it, or no longer can.
            overlap.asks = false
            return page
        }
        page.itemBefore = nil
        if overlap.distrusted { return try await fetchingPlainly(page, at: index, progress: &progress, retryBudget) }
        guard let expected, before.key != expected else {
            if expected != nil { overlap.trusted = true }
            return page
        }
        let listed = try await isListed(before.key)
        if listed, !overlap.trusted {
            overlap = Overlap(asks: false, trusted: false, distrusted: true)
            return try await fetchingPlainly(page, at: index, progress: &progress, retryBudget)
        }
        progress.listMoved = true
        if !listed {
            progress.mayHaveMissedItems = true
            if !page.items.contains(where: { $0.key == before.key }) { page.items.insert(before, at: 0) }
        } else if readsAhead {
            progress.mayHaveMissedItems = true
        }
        return page
    }

    /// The page at `index` asked for again without the item before it; `page` when the source answers "not modified".
    private func fetchingPlainly(
        _ page: Page<RawItem>, at index: Int, progress: inout SyncProgress, _ retryBudget: RetryBudget
    ) async throws -> Page<RawItem> {
        let fetched = try await fetchPage(page.token, index: index, retryBudget: retryBudget)
        progress.pageRetries += fetched.retries
        return fetched.result.page ?? page
    }

    /// Reads the pages of a list read in order again from the last to the first, adding the items no cached page lists.
    ///
    /// An item that moved up between two pages of the walk (an item above it
    /// was removed) slipped onto a page already read. Read from the last page to
    /// the first, it is met: it only ever moves towards the pages not read yet.
    /// See ``readsAgainInReverse``.
    ///
    /// - parameter pageCount: The number of pages the list now holds, when known: a list that grew
    ///   is read from its new last page, and the items of the pages past the cached end join the last cached page.
    /// - throws: The source's error, a cache error, or `CancellationError`. Items added before the error stay.
    func readAgainInReverse(
        _ progress: inout SyncProgress, cached: ListInfo, pageCount: Int? = nil, retryBudget: RetryBudget
    ) async throws {
        guard cached.endReached, cached.total != nil, cached.currentPageCount > 1,
            let addressable = source as? any AddressablePageSource,
            let first = try await storage.page(at: 0, in: list.key), !first.items.idsDecrease
        else { return }
        let lastIndex = cached.currentPageCount - 1
        let firstRead = max(lastIndex, min((pageCount ?? 0) - 1, lastIndex + 2))
        for index in stride(from: firstRead, through: 0, by: -1) {
            let token: PageToken?
            if index == 0 {
                token = nil
            } else if let named = addressable.token(forPageAt: index) {
                token = named
            } else {
                return
            }
            guard
                let page = try await fetchAgain(
                    token, index: index, overlapping: false, retryBudget: retryBudget, &progress)
            else { continue }
            let found = try await addUnlisted(page, foundAt: index, lastIndex: lastIndex)
            if found > 0 { progress.listMoved = true }
            progress.itemsRecovered += found
        }
    }
}

extension Array where Element == RawItem {
    /// Whether these items are at least two, all with integer ids, each smaller than the one before:
    /// a page of a list whose new items come first.
    package var idsDecrease: Bool {
        let ids = compactMap { item -> Int? in
            if case .integer(let id) = item.key { return id }
            return nil
        }
        guard ids.count >= 2, ids.count == count else { return false }
        return zip(ids, ids.dropFirst()).allSatisfy { $0 > $1 }
    }
}
