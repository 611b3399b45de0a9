import Slippers

/// How a walk of a page-number list with a total reads its last page before the pages between, unless the
/// list is read one page at a time and then again from its end (``ListSync/readsAgainInReverse``).
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
/// again (see ``ListSync/run(limits:refresh:retryBudget:onPage:)``).
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

extension ListSync {
    /// The first page, read again once the walk ended, and what it says of the list.
    struct FirstPageAgain {
        /// The page; `nil` when the source answered "not modified".
        var page: Page<RawItem>?
        /// Whether items came above those the walk read there: the list's items move towards its end.
        var newItemsCameFirst = false
        /// The number of pages the list now holds, as the page's total says.
        var pageCount: Int?
    }

    /// Reads the first page again and tells whether items came above those the walk read there,
    /// and the number of pages the list now holds: a list whose items move towards its end is read
    /// again from its first page (starting with this one), any other from its last.
    func firstPageAgain(_ first: LastPageFirst, _ progress: inout SyncProgress, retryBudget: RetryBudget)
        async throws -> FirstPageAgain
    {
        let page = try await fetchAgain(nil, index: 0, overlapping: false, retryBudget: retryBudget, &progress)
        var again = FirstPageAgain(page: page)
        guard let page, let top = first.firstKeys.first, let newTop = page.items.first?.key else { return again }
        again.newItemsCameFirst = newTop != top && !first.firstKeys.contains(newTop)
        if let total = page.total, let size = first.pageItemCount,
            let addressable = source as? any AddressablePageSource
        {
            again.pageCount = addressable.pageCount(forTotal: total, pageItemCount: size)
        }
        return again
    }
}
