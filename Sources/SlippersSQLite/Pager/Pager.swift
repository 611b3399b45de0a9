import Foundation
import Slippers
import SlippersStorage

/// A pager over a `PageSource` and the cache: cached pages at once, then the network.
///
/// The pager publishes ``State`` snapshots as an `AsyncSequence`: first what
/// the cache holds for the list (provenance `.cache`, with its age), then
/// what the network answers (provenance `.network`). A failed network load keeps
/// the cached items published and records the error in the refresh or append
/// state: the pager is offline-first.
///
/// The pager publishes a *window*: the first pages of the cached list, never
/// the whole of it. It starts with the first cached page (or
/// `initialWindow` pages), and each ``loadNextPageIfNeeded()`` grows it by
/// one page, from the cache when the page is cached in the current
/// generation, from the network otherwise. Every read goes through a page's
/// key, so a snapshot costs what its window holds, however large the cache.
///
/// Every fetched page is saved in one transaction before it is published, so
/// a new process that opens the same list continues from the stored
/// resume token instead of the first page.
///
/// For example:
///
/// ```swift
/// let posts = ListDescriptor(key: "GET /posts", itemType: "Post")
/// let pager = Pager<Post>(cache: cache, source: source, list: posts)
/// Task { for await state in await pager.states() { render(state.items, state.provenance) } }
/// await pager.start()
/// await pager.loadNextPageIfNeeded()
/// try await pager.refresh()
/// ```
///
/// The source's type is not part of the pager's: a pager of posts is a
/// `Pager<Post>` whatever feeds it (HTTP, an array, a stub).
///
/// Loads are coalesced: concurrent calls of ``loadNextPageIfNeeded()`` share
/// one request, as do concurrent refreshes. Cancelling the task that awaits a
/// load cancels its request; the cache is then unchanged for that page.
///
/// The pager asks for one page at a time, even from an ``AddressablePageSource``:
/// pages are revalidated in the window's order, which keeps the list without gaps
/// or duplicates when the first page changes, and a scroll asks only for the pages
/// it reaches. To fetch a whole list ahead, run a `ListSync` with
/// `ListSync.concurrency`; the pager then reads its pages from the cache.
public actor Pager<Item: Decodable & Sendable>: AsyncRefreshable {
    /// The list the pager reads and writes; its key and item type carry its ``account``.
    public nonisolated let list: ListDescriptor
    /// How the pager weighs the cache against the network.
    public nonisolated let policy: CachePolicy

    /// The cache the pager reads and writes.
    public nonisolated let cache: SQLiteCache
    let source: AnyPageSource<RawItem>
    let clock: @Sendable () -> Date

    /// The latest snapshot.
    public internal(set) var state = State()

    private var subscribers: [Int: AsyncStream<State>.Continuation] = [:]
    private var nextSubscriber = 0
    var refreshTask: Task<Void, Never>?
    var refreshError: (any Error)?

    deinit {
        // A pager gone is a list closed: a budget may evict it once no other pager of this process has it open.
        if isOpen { try? cache.markClosed(list.key) }
    }

    /// Whether ``start()`` recorded the list as open in this process.
    var isOpen = false
    var appendTask: Task<Void, Never>?
    /// The decoded items of the window, with the JSON they were decoded from.
    var decodedItems: [ItemKey: (json: Data, item: Item)] = [:]
    /// The number of cached pages the first snapshot shows.
    let initialWindow: Int
    /// The pages of the window as last read, superseded ones included.
    var windowPages: [StoredPage] = []
    /// The list's head as last read with the window.
    var windowHead: ListHead?
    /// The indices of the pages the network delivered or confirmed in this session.
    var verifiedThisSession: Set<Int> = []
    /// Items pushed down from a replaced page, published after page `leftoversAfter`
    /// until the page that now holds them is fetched: no item disappears in between.
    var leftovers: [RawItem] = []
    /// The index of the page the ``leftovers`` follow.
    var leftoversAfter = 0
    /// The indices of cached pages whose items no longer decode as `Item`, with whether
    /// they were already fetched again in this session.
    var undecodable: [Int: Bool] = [:]
    /// The gaps on the window's pages, as last read with the window.
    var windowGaps: [ListGap] = []
    /// Whether the window's list is a feed not known complete (read from its head, recorded newest
    /// first): its pages below the head are not revalidated.
    var windowIsFeed = false
    /// Why each page of ``undecodable`` does not decode: its first item that fails, and the member.
    var decodingFailures: [Int: PagerError] = [:]
    /// How long to wait after failures before asking the network again.
    let backoff: OfflineBackoff
    /// The number of failed loads in a row.
    var failureCount = 0
    /// No request is sent before this time, unless ``retry()`` or ``refresh()`` is called.
    var retryAt: Date?
    /// Whose pages these are: the account declared in the configuration, else the one the
    /// source's credentials derive, else the anonymous account. Pages are kept apart per account.
    public nonisolated let account: Account
    /// Whether pages whose response said `Cache-Control: no-store` are stored all the same: as
    /// configured, else for a list of a declared or derived account and not for an anonymous one.
    public nonisolated let keepsNoStorePages: Bool
    /// Whether the window is held in memory only, since a `no-store` page was fetched in this session.
    var isEphemeral = false
    /// The number of window pages the published snapshot shows as they are; `nil` once one of them changed.
    var publishedThrough: Int?
    /// The keys of the items the published snapshot shows (or withheld as undecodable).
    var publishedKeys: Set<ItemKey> = []
    /// The source's `Vary` fingerprints by header names: its headers do not change.
    var sourceVaryKeys: [[String]: String?] = [:]

    /// The settings of a pager: its cache policy, first window, account and backoff.
    public typealias Configuration = PagerConfiguration

    /// Creates a pager of `Item`s for a list, fed by `source`.
    ///
    /// Nothing is read or fetched until ``start()``.
    ///
    /// For example:
    ///
    /// ```swift
    /// let pager = Pager<Post>(
    ///     cache: cache, source: source, list: ListDescriptor(key: "GET /posts", of: Post.self),
    ///     configuration: .init(policy: .cacheFirst(maxAge: 60)))
    /// ```
    ///
    /// - parameter cache: The cache.
    /// - parameter source: Where pages come from.
    /// - parameter list: The list: its canonical key, the name its items are filed
    ///   under, and the pagination style recorded with it.
    /// - parameter configuration: The cache policy, first window, account and backoff; the
    ///   defaults of ``PagerConfiguration`` unless given.
    public init(
        cache: SQLiteCache,
        source: some PageSource<RawItem>,
        list: ListDescriptor,
        configuration: PagerConfiguration = PagerConfiguration()
    ) {
        self.cache = cache
        self.source = AnyPageSource(source)
        // An account is a list and an item type of its own: no page or item row is shared across accounts.
        let account = cache.account(declared: configuration.account, credentialDigest: source.credentialDigest)
        self.list = list.forAccount(account)
        self.account = account
        // A person's pages are theirs (sign-out removes them): kept offline unless the app says otherwise.
        self.keepsNoStorePages = configuration.keepsNoStorePages ?? !account.isAnonymous
        self.policy = configuration.policy
        // A window holds at least one page.
        self.initialWindow = max(1, configuration.initialWindow)
        self.backoff = configuration.backoff
        self.clock = configuration.clock
    }

    /// A sequence of snapshots: the current one at once, then one after every change.
    ///
    /// Each call returns an independent sequence; it ends when the task that
    /// iterates it is cancelled. Snapshots are buffered, so a slow reader sees
    /// every one of them in order.
    public func states() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        continuation.yield(state)
        return stream
    }

    func publish() {
        state.isHeldInMemory = isEphemeral
        state.age = state.cachedAt.map { clock().timeIntervalSince($0) }
        for continuation in subscribers.values { continuation.yield(state) }
    }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }
}
