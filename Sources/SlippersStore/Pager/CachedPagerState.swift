import Foundation

extension CachedPager {
    /// Where the published items came from.
    public enum Origin: Hashable, Sendable {
        /// Nothing is published yet.
        case none
        /// The items were read from the cache; the network has not confirmed them in this session.
        case cache
        /// The network delivered or confirmed the items in this session.
        case network
    }

    /// A snapshot of a pager: the items of its window and where its loads stand.
    ///
    /// The window is a prefix of the cached list: pages `0..<pages.count`.
    public struct State: Sendable {
        /// The items of the window's pages, in order, each id once (its first occurrence wins).
        public var items: [Item] = []
        /// The window's pages, in order; stale ones are of an older generation.
        public var pages: [PageInfo] = []
        /// The number of items in the whole list, when the server said.
        public var total: Int?
        /// Whether the last page has been loaded and the window shows every cached page.
        public var endReached = false
        /// The state of the first page's load: the initial load and every refresh.
        public var refresh: LoadState = .idle
        /// The state of the loads of the second page and later.
        public var append: LoadState = .idle
        /// Where the items came from.
        public var origin: Origin = .none
        /// Whether the collection is invalidated or the window shows pages of an older generation.
        public var isStale = false
        /// When the first page was fetched from, or confirmed by, the network.
        public var cachedAt: Date?
        /// How old the cached first page was when this snapshot was published, in seconds.
        public var age: TimeInterval?

        /// Whether a load is running.
        public var isLoading: Bool { refresh.isLoading || append.isLoading }

        /// The number of items on the window's pages of the current generation: the rows that will not be replaced.
        public var currentItemCount: Int {
            pages.lazy.filter { !$0.isStale }.map(\.itemCount).reduce(0, +)
        }
    }
}
