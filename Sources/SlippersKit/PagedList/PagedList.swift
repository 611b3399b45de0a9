import Foundation
import Observation
import Synchronization

/// A paged list for a view to observe: the items of a cached pager, its loads and their errors.
///
/// An `@Observable` model on the main actor over a ``Pager``: SwiftUI
/// redraws what reads ``items``, ``isRefreshing`` or ``appendError`` when they
/// change, and an `@Observable` app model can hold one as a property. Rows
/// report themselves with ``rowAppeared(_:)``, which asks for the next page
/// as the end of the list comes into view, once per page. After a failure the
/// rows keep revealing the cached pages with no request; the network is asked
/// again when the backoff ends, or at once by ``retry()``.
///
/// For example:
///
/// ```swift
/// @State var posts = PagedList<Post>(url: "https://api.example.com/posts", cache: cache)
///
/// List(posts.items) { post in PostRow(post).onAppear { posts.rowAppeared(post) } }
///     .task { await posts.load() }
///     .refreshable { await posts.refresh() }
/// ```
///
/// The list follows the cache while it is loaded: a change written through another
/// list, a sync or refresh by another process (the `slippers` command line) or an
/// eviction reaches ``items`` without a request (``Pager/followCache(pollingEvery:)``).
///
/// UIKit and server code can read the pager's snapshots as an `AsyncSequence`
/// instead: `await list.pager?.states()`.
@MainActor
@Observable
public final class PagedList<Item: Decodable & Sendable & Identifiable> {
    /// The latest snapshot of the pager: items, pages with their provenances, loads.
    public private(set) var state = Pager<Item>.State()
    /// Whether the list's source is being prepared (its style detected from the first page).
    private var isPreparing = false
    /// Why the list's source could not be prepared, if it could not.
    private var preparationError: (any Error)?

    /// The pager, once the list's source is known (at once when its style is; after the first
    /// ``load()`` when it is detected).
    @ObservationIgnored public private(set) var pager: Pager<Item>?
    @ObservationIgnored private let makePager: (@Sendable () async throws -> Pager<Item>)?
    @ObservationIgnored private var preparation: Task<Pager<Item>?, Never>?
    @ObservationIgnored private let subscription = Subscription()
    @ObservationIgnored private let following = Subscription()
    /// Where the list's items are written (``update(_:baseVersion:_:)``, ``delete(_:baseVersion:)``):
    /// by default the list URL's path, the id, and its trailing slash.
    @ObservationIgnored public var itemURLTemplate: ItemURLTemplate?
    @ObservationIgnored private var isSubscribed = false
    /// The client and headers of the list's requests, which ``push(conflictRule:)`` sends its writes
    /// with; set by the HTTP initialisers.
    @ObservationIgnored var requests: RequestContext?
    /// The number of this list's writes waiting to be sent: pending, or in doubt (an insert whose
    /// answer never arrived). A view can show it; it follows the cache.
    public private(set) var pendingWriteCount = 0
    /// The number of this list's writes the server refused: they wait for ``retry(_:)`` or ``discard(_:)``.
    public private(set) var failedWriteCount = 0

    /// The client and headers a list's requests go with.
    struct RequestContext: Sendable {
        var client: APIClient
        var headers: [String: String]
    }
    @ObservationIgnored private let trigger: InfiniteListTrigger
    @ObservationIgnored private var positions: [Item.ID: Int] = [:]

    /// Creates a list over a pager; nothing is read or fetched until ``load()``.
    ///
    /// - parameter pager: The pager whose snapshots the list shows.
    /// - parameter distanceFromEnd: How many rows before the end of the list the next page is asked for.
    public init(pager: Pager<Item>, distanceFromEnd: Int = 5) {
        self.pager = pager
        self.makePager = nil
        self.trigger = InfiniteListTrigger(distanceFromEnd: distanceFromEnd) {}
    }

    /// Creates a list whose pager is made by `makePager` on the first ``load()``: a list whose style is detected.
    ///
    /// - parameter distanceFromEnd: How many rows before the end of the list the next page is asked for.
    /// - parameter makePager: Makes the pager; what it throws is the list's ``refreshError``.
    public init(
        distanceFromEnd: Int = 5, makePager: @escaping @Sendable () async throws -> Pager<Item>
    ) {
        self.pager = nil
        self.makePager = makePager
        self.trigger = InfiniteListTrigger(distanceFromEnd: distanceFromEnd) {}
    }

    deinit {
        subscription.cancel()
        following.cancel()
    }

    // MARK: - What a view reads

    /// The items, in order, each id once.
    public var items: [Item] { state.items }
    /// Where each loaded page came from: the network in this session, the cache within its lifetime, or the cache unverified.
    public var pageProvenances: [PageProvenance] { state.pageProvenances }
    /// Where the items came from, as a whole.
    public var provenance: Pager<Item>.Provenance { state.provenance }
    /// Whether the first page is loading: the first load, a refresh, or the detection of the list's style.
    public var isRefreshing: Bool { isPreparing || state.refresh.isLoading }
    /// Whether a later page is loading.
    public var isLoadingNextPage: Bool { state.append.isLoading }
    /// Whether any load is running.
    public var isLoading: Bool { isRefreshing || isLoadingNextPage }
    /// Why the first page (or the list's source) failed to load; the items shown before stay shown.
    public var refreshError: (any Error)? { preparationError ?? state.refresh.error }
    /// Why a later page failed to load; the items shown before stay shown.
    public var appendError: (any Error)? { state.append.error }
    /// Whether the last page is loaded and every cached page is shown.
    public var endReached: Bool { state.endReached }
    /// The number of items of the whole list, when the server said.
    public var total: Int? { state.total }
    /// Whether the end was reached with fewer items than the server announced (``total``): the
    /// list shown is not the server's whole list.
    public var isIncomplete: Bool { state.isIncomplete }

    // MARK: - What a view calls

    /// Shows the cached pages at once, then loads the first page as the pager's policy says.
    ///
    /// Call it from SwiftUI's `.task`. Calling it again reads the cache again.
    public func load() async {
        guard let pager = await preparedPager() else { return }
        await pager.start()
        apply(await pager.state)
    }

    /// Loads the first page again, for SwiftUI's `.refreshable`: returns when the refresh ended.
    ///
    /// A failure is kept in ``refreshError``, not thrown: the items shown before stay shown.
    public func refresh() async {
        guard let pager = await preparedPager() else { return }
        trigger.reset(loadedPages: 0)
        try? await pager.refresh()
        apply(await pager.state)
    }

    /// Asks the network again now, without waiting for the backoff: the failed loads are run again.
    public func retry() async {
        if pager == nil {
            await load()
            return
        }
        guard let pager else { return }
        trigger.reset(loadedPages: 0)
        await pager.retry()
        apply(await pager.state)
    }

    /// Shows one more page (see ``Pager/loadNextPageIfNeeded()``).
    public func loadNextPage() async {
        guard let pager else { return }
        await pager.loadNextPageIfNeeded()
        apply(await pager.state)
    }

    /// Reports that the row of `item` appeared; the next page is asked for when the end of the list is near.
    ///
    /// Call it from each row's `.onAppear`. It asks once per page. After a failure the rows
    /// keep revealing the cached pages, of any age, with no request: only ``retry()``,
    /// ``refresh()`` or the end of the backoff let the network be asked again.
    public func rowAppeared(_ item: Item) {
        guard let index = positions[item.id] else { return }
        rowAppeared(at: index)
    }

    /// Reports that the row at `index` appeared; the next page is asked for when the end of the list is near.
    public func rowAppeared(at index: Int) {
        guard let pager, !state.endReached || state.settledPageCount < state.pages.count else { return }
        guard trigger.isDue(index, of: state.rowsBeforeNextPage) else { return }
        Task { await pager.loadNextPageIfNeeded() }
    }

    // MARK: - Snapshots

    private func preparedPager() async -> Pager<Item>? {
        if let pager {
            await subscribe(to: pager)
            return pager
        }
        if let preparation { return await preparation.value }
        guard let makePager else { return nil }
        isPreparing = true
        preparationError = nil
        let task = Task<Pager<Item>?, Never> {
            do {
                return try await makePager()
            } catch {
                preparationError = error
                return nil
            }
        }
        preparation = task
        let made = await task.value
        preparation = nil
        isPreparing = false
        if let made {
            pager = made
            await subscribe(to: made)
        }
        return made
    }

    /// Starts feeding the list the pager's snapshots, once; returns when the feed is in place.
    private func subscribe(to pager: Pager<Item>) async {
        guard !isSubscribed else { return }
        isSubscribed = true
        let states = await pager.states()
        subscription.start(
            Task { [weak self] in
                for await state in states {
                    guard let self else { return }
                    self.apply(state)
                }
            })
        // The list follows the cache: writes through other lists, syncs and other processes reach it.
        following.start(Task { await pager.followCache() })
    }

    private func apply(_ state: Pager<Item>.State) {
        if state.items.map(\Item.id) != self.state.items.map(\Item.id) {
            var positions: [Item.ID: Int] = [:]
            for (index, item) in state.items.enumerated() where positions[item.id] == nil { positions[item.id] = index }
            self.positions = positions
        }
        self.state = state
        countWrites()
    }

    /// Shows a change made through this list at once, as the cache's next snapshot will show it.
    func showLocally(_ edit: (inout [Item]) -> Void) {
        var state = self.state
        edit(&state.items)
        apply(state)
    }

    /// Counts this list's writes in the outbox again.
    func countWrites() {
        guard let pager, let counts = try? pager.cache.outboxCounts(type: pager.collection.itemType) else { return }
        if pendingWriteCount != counts.pending { pendingWriteCount = counts.pending }
        if failedWriteCount != counts.failed { failedWriteCount = counts.failed }
    }
}

/// The task that feeds a list its pager's snapshots, cancelled when the list goes away.
private final class Subscription: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ newTask: Task<Void, Never>) {
        task.withLock { $0 = newTask }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}

extension PagedList: AsyncRefreshable {}
