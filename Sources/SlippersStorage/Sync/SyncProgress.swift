import Slippers

/// What a sync of a list has done so far: the figures a walk reports after each page and returns
/// at its end (``ListSync/run(limits:refresh:retryBudget:onPage:)``, ``IncrementalSync``), and what
/// SlippersKit's `Syncer` tells in its `progress` events.
public struct SyncProgress: Hashable, Sendable {
    /// The index of the first page this run fetched (0 unless it resumed).
    public var startIndex: Int
    /// The number of pages this run fetched and saved.
    public var pagesFetched = 0
    /// The number of distinct items on the pages this run fetched and saved: an id already listed counts once.
    public var itemsFetched = 0
    /// The number of items this run fetched whose id was already listed: twice on one page,
    /// or on an earlier page (an offset list that shifted). Each id is stored once.
    public var repeatedItems = 0
    /// The number of pages the list holds in its current generation.
    public var pagesCached = 0
    /// The number of items the list held when this run started: 0 for a new list and for a run
    /// that starts again at its first page.
    public var itemsCachedBefore = 0
    /// The number of items in the whole list, when the source said.
    public var total: Int?
    /// The number of pages in the whole list, when the source said (`total_pages`, `X-Pagination`,
    /// a `Link` with `rel="last"`): a walk that ends short of it did not reach the list's end.
    public var announcedPageCount: Int?
    /// Whether the last page has been fetched.
    public var endReached = false
    /// How many times a failing page was fetched again under the run's `RetryBudget`.
    public var pageRetries = 0

    /// Whether the list changed while this run read it: a page listed ids an earlier page had
    /// listed, or the announced total changed between pages (or since the run it resumed).
    public var listMoved = false
    /// The pages fetched again, after the walk reached the end of a list that moved under it, to
    /// find the items it may have missed (see ``ListSync/run(limits:refresh:retryBudget:onPage:)``).
    public var pagesRefetched = 0
    /// The items those pages listed that no cached page did; they were added to the cached pages.
    public var itemsRecovered = 0
    /// Whether a move was seen that may have hidden items from the walk: the reason to read the list again.
    var mayHaveMissedItems = false
    /// Whether the list moved down while it was read (an id repeated at a page boundary): its new items come first.
    var movedDown = false
    /// Whether the walk still asked for the item before each page when it ended: a read again asks alike.
    var overlapsPages = false
    /// How the walk read the list's last page before the pages between, when it did.
    var lastPageFirst: LastPageFirst?

    /// Whether the run ended the list at its first page because the second page listed
    /// exactly the first page's items (see ``ListSync/repeatedSecondPage``).
    public var endedOnARepeatedFirstPage = false

    /// Whether this run continued a list an earlier run had started.
    public var resumed: Bool { startIndex > 0 }

    /// The number of items the list holds, counting those it held before this run.
    public var itemsCached: Int { itemsCachedBefore + itemsFetched }
}

extension SyncProgress {
    /// The figures of a run that fetched `pagesFetched` pages and `itemsFetched` items of a list
    /// that now holds `pagesCached` pages.
    package init(pagesFetched: Int, itemsFetched: Int, pagesCached: Int) {
        self.init(startIndex: 0, pagesFetched: pagesFetched, itemsFetched: itemsFetched, pagesCached: pagesCached)
    }
}
