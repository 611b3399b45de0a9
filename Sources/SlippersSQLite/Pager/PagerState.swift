import Foundation
import Slippers
import SlippersStorage

extension Pager {
    /// Where the published items came from: the network or the cache (each page's own is in ``State/pageProvenances``).
    public enum Provenance: Hashable, Sendable {
        /// Nothing is published yet.
        case none
        /// The items were read from the cache; the network has not confirmed them in this session.
        case cache
        /// The network delivered or confirmed the items in this session.
        case network
    }

    /// A place in the list where the server has items the cache does not: drawn by a view
    /// ("480 newer posts", "more posts") and filled by ``Pager/fillGap(_:)``.
    public struct Gap: Hashable, Sendable, Identifiable {
        /// The gap's number in the cache file.
        public var id: Int64
        /// The index in ``State/items`` of the item above the gap; -1 when the gap opens the list.
        public var afterIndex: Int
        /// How many items the server said the gap holds, when it said.
        public var itemCount: Int?
    }

    /// A snapshot of a pager: the items of its window and where its loads stand.
    ///
    /// The window is a prefix of the cached list: pages `0..<pages.count`.
    /// Snapshots of `Equatable` items are `Equatable`, so a view or a test
    /// can tell whether anything changed.
    public struct State: Sendable {
        /// The items of the window's pages, in order, each id once (its first occurrence wins).
        ///
        /// Items a replaced page pushed down stay after it until the page that now holds
        /// them is fetched; the items of a page withheld (one for other header values, or no
        /// longer decodable) are left out.
        public var items: [Item] = []
        /// The gaps between the runs of the list's items, in order: a refresh of a feed whose first
        /// page did not reach a cached item leaves one below the new items.
        public var gaps: [Gap] = []
        /// The item the list opened at (``Pager/open(at:)``), for a view to scroll to; `nil` at the head.
        public var openedAt: ItemKey?
        /// The window's pages, in order; superseded ones are of an older generation.
        public var pages: [PageInfo] = []
        /// Where each of the window's pages came from, in the order of ``pages``:
        /// confirmed by the network in this session, fresh by its lifetime, or unverified from the cache.
        public var pageProvenances: [PageProvenance] = []
        /// The indices of the window's pages whose cached items no longer decode as `Item`:
        /// their items are left out (the page is refetched when the network allows).
        public var undecodablePages: [Int] = []
        /// The keys of the published items edited locally since a fetched page last brought them:
        /// no server has confirmed them.
        public var locallyEditedKeys: Set<ItemKey> = []
        /// Whether the window is held in memory only: the server said `Cache-Control: no-store` and
        /// the list keeps no such page (an anonymous list, see ``PagerConfiguration/keepsNoStorePages``),
        /// so its rows will not be there offline or after a relaunch.
        public var isHeldInMemory = false
        /// When the pager will ask the network again after a failure, unless ``Pager/retry()`` is called.
        public var nextRetryAt: Date?
        /// The number of pages at the start of the window that need no request: the others are
        /// superseded, unverified or expired, and are revalidated one by one as the window grows.
        public var settledPageCount = 0
        /// The number of items in the whole list, when the server said.
        public var total: Int?
        /// Whether the last page has been loaded and the window shows every cached page.
        public var endReached = false
        /// The state of the first page's load: the initial load and every refresh.
        public var refresh: LoadState = .idle
        /// The state of the loads of the second page and later.
        public var append: LoadState = .idle
        /// Where the items came from.
        public var provenance: Provenance = .none
        /// Whether the list is invalidated, or the window shows pages of an older generation
        /// or pages a refresh marked unverified and not revalidated yet.
        public var isUnverified = false
        /// When the first page was fetched from, or confirmed by, the network.
        public var cachedAt: Date?
        /// How old the cached first page was when this snapshot was published, in seconds.
        public var age: TimeInterval?

        /// An empty snapshot: no items, nothing loaded, nothing loading.
        public init() {}

        /// Whether a load is running.
        public var isLoading: Bool { refresh.isLoading || append.isLoading }

        /// Whether the end of the list was reached with fewer items than its server announced
        /// (``total``): the list is not an exact copy of the server's, and a view can say so.
        public var isIncomplete: Bool {
            ListHead.isIncomplete(endReached: endReached, total: total, itemCount: items.count)
        }

        /// The number of items on the settled pages at the start of the window: the rows that will not be replaced.
        public var currentItemCount: Int {
            pages.prefix(settledPageCount).lazy.map(\.itemCount).reduce(0, +)
        }

        /// The number of rows the next page follows, for deciding when a displayed row asks for it.
        ///
        /// While loads succeed, the settled rows (``currentItemCount``): the pages after
        /// them are revalidated as the rows come on screen. Once the first page's load or
        /// a later one has failed, every row shown: the window then grows through the
        /// cached pages, whatever their age, with no request until the backoff ends or
        /// the caller retries, and the rows reveal them as they are scrolled to.
        public var rowsBeforeNextPage: Int {
            refresh.error != nil || append.error != nil ? items.count : currentItemCount
        }
    }
}

extension Pager.State: Equatable where Item: Equatable {}

extension Pager.Provenance: CustomStringConvertible {
    /// The provenance's name, as in `network`.
    public var description: String {
        switch self {
        case .none: "none"
        case .cache: "cache"
        case .network: "network"
        }
    }
}
