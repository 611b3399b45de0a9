import Slippers

extension CollectionSync {
    /// How a walk of a page-number list with a total reads its last page before the pages between, unless the
    /// list is read one page at a time and then again from its end (``CollectionSync/readsAgainInReverse``).
    ///
    /// A page-number list hides an item wherever an insertion
    /// or removal above a page boundary moved it onto a page that was read first,
    /// and when insertions balance removals its total does not tell. Its ids do,
    /// once both of its ends are read before the pages between: a removal shifts
    /// every item below it up, the last page included. If a page was read after
    /// the removal and the page below it before (an item hid there), then on the
    /// way down to the last page, read before it, some page was read after the
    /// removal and the page below it before, and the two list an id twice.
    /// Insertions at the top mirror this from the first page. So every item hidden
    /// so shows as an id repeated at another boundary, and the walk reads the list
    /// again (see ``run(limits:refresh:retryBudget:onPage:)``).
    struct LastPageFirst: Hashable, Sendable {
        /// The ids of the first page, as the walk read it.
        var firstKeys: [ItemKey]
        /// The number of items on a page that is not the last.
        var pageItemCount: Int?
        /// The index of the last page, once asked for.
        var lastIndex: Int?
        /// Whether the last page has arrived.
        var isRead = false

        /// Whether the walk waits for its last page before it asks for the pages between.
        var isAwaited: Bool { !isRead }

        /// Records the arrival of the last page, when `fetched` is it.
        mutating func note(_ fetched: PagesInFlight.Fetched) {
            if fetched.index == lastIndex { isRead = true }
        }
    }

    /// Reads the first page again and tells whether items came above those the walk read there,
    /// and the number of pages the list now holds, as its total says: a list whose items move towards
    /// its end is read again from its first page, any other from its last.
    func newItemsCameFirst(_ first: LastPageFirst, _ progress: inout Progress, retryBudget: RetryBudget)
        async throws -> (cameFirst: Bool, pageCount: Int?)
    {
        guard let top = first.firstKeys.first,
            let page = try await fetchAgain(nil, index: 0, overlapping: false, retryBudget: retryBudget, &progress),
            let newTop = page.items.first?.key
        else { return (false, nil) }
        var pageCount: Int?
        if let total = page.total, let size = first.pageItemCount,
            let addressable = source as? any AddressablePageSource
        {
            pageCount = addressable.pageCount(forTotal: total, pageItemCount: size)
        }
        return (newTop != top && !first.firstKeys.contains(newTop), pageCount)
    }
}
