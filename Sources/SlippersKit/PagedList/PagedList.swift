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
    /// How many rows before the end of the list the next page is asked for.
    @ObservationIgnored private let distanceFromEnd: Int
    @ObservationIgnored private var positions: [Item.ID: Int] = [:]
    /// The furthest row reported shown: while it is near the end, the list loads more.
    @ObservationIgnored private var lastShownRow: Int?
    /// The nearest row to the top reported shown: a gap above it fills from below.
    @ObservationIgnored private var firstShownRow: Int?
    /// Where the first ``load()`` opens the list, until it has.
    @ObservationIgnored private var opening: Anchor?
    /// The load the list asked for because its last rows are shown, while it runs.
    @ObservationIgnored private var pull: Task<Void, Never>?
    /// The state at which a load changed nothing: the list waits for another state before asking again.
    @ObservationIgnored private var unchangedBy: PullPoint?
    /// Wakes the list when the pager's backoff ends, while its last rows are shown.
    @ObservationIgnored private let wake = Subscription()
    @ObservationIgnored private var wakeAt: Date?

    /// Creates a list over a pager; nothing is read or fetched until ``load()``.
    ///
    /// - parameter pager: The pager whose snapshots the list shows.
    /// - parameter around: Where the first ``load()`` opens the list: at an item, or where its
    ///   reader stopped (``savePosition(_:)``); at its head when `nil`.
    /// - parameter distanceFromEnd: How many rows before the end of the list the next page is asked for.
    public init(pager: Pager<Item>, around: Anchor? = nil, distanceFromEnd: Int = 5) {
        self.pager = pager
        self.makePager = nil
        self.opening = around
        self.distanceFromEnd = max(0, distanceFromEnd)
    }

    /// Creates a list whose pager is made by `makePager` on the first ``load()``: a list whose style is detected.
    ///
    /// - parameter around: Where the first ``load()`` opens the list; at its head when `nil`.
    /// - parameter distanceFromEnd: How many rows before the end of the list the next page is asked for.
    /// - parameter makePager: Makes the pager; what it throws is the list's ``refreshError``.
    public init(
        around: Anchor? = nil, distanceFromEnd: Int = 5,
        makePager: @escaping @Sendable () async throws -> Pager<Item>
    ) {
        self.pager = nil
        self.makePager = makePager
        self.opening = around
        self.distanceFromEnd = max(0, distanceFromEnd)
    }

    /// Where a list opens: at an item (a notification's deep link), or where its reader stopped.
    public enum Anchor {
        /// At the item with this id: from the cache at once when it holds the item, else through
        /// what the server offers (see ``Pager/open(at:)``).
        case item(Item.ID)
        /// Where the reader stopped, as ``savePosition(_:)`` recorded it in the cache file; at the
        /// head when nothing was recorded.
        case savedPosition
    }

    deinit {
        subscription.cancel()
        following.cancel()
        wake.cancel()
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
    /// The gaps between the runs of a feed's items, in order: where the server has items the cache
    /// does not (a refresh after a burst leaves one below the new items). Draw each after the item
    /// at its `afterIndex` ("480 newer posts" when `itemCount` is known, else "more posts"); it fills
    /// when its row is shown, or by ``fillGap(_:)``.
    public var gaps: [Pager<Item>.Gap] { state.gaps }
    /// The rows a view draws: the items in order, with each gap after the item above it.
    ///
    /// ```swift
    /// ForEach(posts.rows) { row in
    ///     switch row {
    ///     case .item(let post): Text(post.title).onAppear { posts.rowAppeared(post) }
    ///     case .gap(let gap): Text(gap.itemCount.map { "\($0) newer posts" } ?? "more posts")
    ///     }
    /// }
    /// ```
    public var rows: [Row] {
        guard !state.gaps.isEmpty else { return state.items.map(Row.item) }
        var rows: [Row] = []
        rows.reserveCapacity(state.items.count + state.gaps.count)
        var gaps = state.gaps[...]
        while let gap = gaps.first, gap.afterIndex < 0 {
            rows.append(.gap(gap))
            gaps = gaps.dropFirst()
        }
        for (index, item) in state.items.enumerated() {
            rows.append(.item(item))
            while let gap = gaps.first, gap.afterIndex == index {
                rows.append(.gap(gap))
                gaps = gaps.dropFirst()
            }
        }
        return rows
    }

    /// A row of a list: an item, or a gap where the server has items the cache does not.
    public enum Row: Identifiable {
        /// An item of the list.
        case item(Item)
        /// A gap: draw it ("480 newer posts", "more posts"); showing it fills it.
        case gap(Pager<Item>.Gap)

        /// A row's identity: its item's id, or its gap's number.
        public enum RowID: Hashable {
            /// The row of the item with this id.
            case item(Item.ID)
            /// The row of the gap with this number.
            case gap(Int64)
        }

        /// The row's identity, stable while the list changes.
        public var id: RowID {
            switch self {
            case .item(let item): .item(item.id)
            case .gap(let gap): .gap(gap.id)
            }
        }
    }

    /// Whether the end was reached with fewer items than the server announced (``total``): the
    /// list shown is not the server's whole list.
    public var isIncomplete: Bool { state.isIncomplete }

    // MARK: - What a view calls

    /// Shows the cached pages at once, then loads the first page as the pager's policy says.
    ///
    /// Call it from SwiftUI's `.task`. Calling it again reads the cache again. The first call
    /// opens the list where the initialiser's `around` says (``openedAt`` names the item to
    /// scroll to), or at its head.
    public func load() async {
        guard let pager = await preparedPager() else { return }
        if let opening {
            self.opening = nil
            if let key = openingKey(opening, of: pager) {
                await open(at: key, in: pager)
                return
            }
        }
        await pager.start()
        apply(await pager.state)
    }

    /// Opens the list at the item with `id` (see ``Pager/open(at:)``): ``openedAt`` names it for the
    /// view to scroll to, or ``refreshError`` says why the list opened at its head.
    public func open(at id: Item.ID) async {
        guard let pager = await preparedPager(), let key = ItemKey(id: id) else { return }
        await open(at: key, in: pager)
    }

    private func open(at key: ItemKey, in pager: Pager<Item>) async {
        unchangedBy = nil
        await pager.open(at: key)
        let state = await pager.state
        apply(state)
        if let index = state.items.firstIndex(where: { ItemKey(id: $0.id) == key }) {
            firstShownRow = index
            lastShownRow = index
            pullIfNeeded()
        }
    }

    private func openingKey(_ anchor: Anchor, of pager: Pager<Item>) -> ItemKey? {
        switch anchor {
        case .item(let id): ItemKey(id: id)
        case .savedPosition: try? pager.cache.readingPosition(of: pager.list.key)
        }
    }

    /// The id of the item the list opened at (``Anchor``, ``open(at:)``), while it is shown: scroll
    /// to its row (`ScrollViewReader`'s `scrollTo(Row.RowID.item(id))`).
    public var openedAt: Item.ID? {
        guard let key = state.openedAt else { return nil }
        return state.items.first { ItemKey(id: $0.id) == key }?.id
    }

    /// Records in the cache file that the list's reader stopped at the item with `id` (the top row
    /// shown, say), so that a list made with `around: .savedPosition` opens there, after a relaunch too.
    public func savePosition(_ id: Item.ID) {
        guard let pager, let key = ItemKey(id: id) else { return }
        try? pager.cache.setReadingPosition(key, for: pager.list.key)
    }

    /// Loads the first page again, for SwiftUI's `.refreshable`: returns when the refresh ended.
    ///
    /// A failure is kept in ``refreshError``, not thrown: the items shown before stay shown.
    public func refresh() async {
        guard let pager = await preparedPager() else { return }
        unchangedBy = nil
        // A refresh is pulled from the top: the rows shown from now on say how far the reader goes.
        lastShownRow = nil
        firstShownRow = nil
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
        unchangedBy = nil
        await pager.retry()
        apply(await pager.state)
    }

    /// Fills `gap` by one page, from the run above it unless `fromBelow` (see ``Pager/fillGap(_:fromBelow:)``).
    public func fillGap(_ gap: Pager<Item>.Gap, fromBelow: Bool = false) async {
        guard let pager else { return }
        await pager.fillGap(gap.id, fromBelow: fromBelow)
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
    /// Call it from each row's `.onAppear`. While the furthest row shown is within
    /// `distanceFromEnd` rows of the end, the list keeps loading, whatever the order in which
    /// rows appear and answers arrive: it loads more, shows its end, or shows why not
    /// (``appendError``, ``refreshError``). After a failure the rows keep revealing the cached
    /// pages, of any age, with no request: only ``retry()``, ``refresh()`` or the end of the
    /// backoff let the network be asked again, and the end of the backoff does so by itself.
    public func rowAppeared(_ item: Item) {
        guard let index = positions[item.id] else { return }
        rowAppeared(at: index)
    }

    /// Reports that a row of ``rows`` appeared: an item's row as `rowAppeared(_ item:)` does; a
    /// gap's row fills the gap.
    public func rowAppeared(_ row: Row) {
        switch row {
        case .item(let item): rowAppeared(item)
        case .gap(let gap): rowAppeared(at: gap.afterIndex)
        }
    }

    /// Reports that the row at `index` appeared; the next page is asked for when the end of the list is near.
    public func rowAppeared(at index: Int) {
        lastShownRow = max(lastShownRow ?? index, index)
        firstShownRow = min(firstShownRow ?? index, index)
        pullIfNeeded()
    }

    /// Whether the list asked for a load because its last rows are shown, and it still runs.
    var isPulling: Bool { pull != nil }

    /// Loads the next page when the furthest row shown is near the end of the rows the next page
    /// follows, no load runs, and the last load did not leave the list as it is.
    ///
    /// Called on every row shown and every snapshot, so that no interleaving of rows, answers and
    /// failures leaves the list waiting for a row to appear again.
    private func pullIfNeeded() {
        guard let pager, let row = lastShownRow, pull == nil else { return }
        let state = self.state
        // A gap whose edge is shown fills before the list grows at its end: from below when every
        // row shown is below it (the reader scrolls up toward it), else from above.
        let top = firstShownRow ?? row
        let gap = state.gaps.first { gap in
            row + distanceFromEnd >= gap.afterIndex && top - distanceFromEnd <= gap.afterIndex + 1
        }
        let fromBelow = gap.map { top > $0.afterIndex } ?? false
        guard gap != nil || !state.endReached || state.settledPageCount < state.pages.count, !state.isLoading,
            gap != nil || row >= state.rowsBeforeNextPage - 1 - distanceFromEnd
        else { return }
        let point = PullPoint(state)
        scheduleWake(at: state.nextRetryAt)
        guard point != unchangedBy else { return }
        pull = Task { [weak self] in
            if let gap {
                await pager.fillGap(gap.id, fromBelow: fromBelow)
            } else {
                await pager.loadNextPageIfNeeded()
            }
            let after = await pager.state
            guard let self else { return }
            self.pull = nil
            if PullPoint(after) == point { self.unchangedBy = point }
            self.apply(after)
        }
    }

    /// Asks again when the pager's backoff ends, if the last rows are still shown then.
    private func scheduleWake(at date: Date?) {
        guard let date, date != wakeAt else { return }
        wakeAt = date
        wake.start(
            Task { [weak self] in
                let delay = date.timeIntervalSinceNow
                if delay > 0 { try? await Task.sleep(for: .seconds(delay)) }
                guard !Task.isCancelled, let self else { return }
                self.wakeAt = nil
                self.unchangedBy = nil
                self.pullIfNeeded()
            })
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
        pullIfNeeded()
    }

    /// Shows a change made through this list at once, as the cache's next snapshot will show it.
    func showLocally(_ edit: (inout [Item]) -> Void) {
        var state = self.state
        edit(&state.items)
        apply(state)
    }

    /// Counts this list's writes in the outbox again.
    func countWrites() {
        guard let pager, let counts = try? pager.cache.outboxCounts(type: pager.list.itemType) else { return }
        if pendingWriteCount != counts.pending { pendingWriteCount = counts.pending }
        if failedWriteCount != counts.failed { failedWriteCount = counts.failed }
    }
}

/// What a load asked for by the shown rows is judged by: whether it changed any of these.
private struct PullPoint: Equatable {
    var pageCount: Int
    var settledPageCount: Int
    var itemCount: Int
    var endReached: Bool
    var refreshFailed: Bool
    var appendFailed: Bool
    var nextRetryAt: Date?
    var gaps: [Int64]

    init<Item>(_ state: Pager<Item>.State) {
        pageCount = state.pages.count
        settledPageCount = state.settledPageCount
        itemCount = state.items.count
        endReached = state.endReached
        refreshFailed = state.refresh.error != nil
        appendFailed = state.append.error != nil
        nextRetryAt = state.nextRetryAt
        gaps = state.gaps.map(\.id)
    }
}

/// A task of a list's, cancelled when the list goes away or another replaces it.
private final class Subscription: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ newTask: Task<Void, Never>) {
        task.withLock { old in
            old?.cancel()
            old = newTask
        }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}

extension PagedList: AsyncRefreshable {}
