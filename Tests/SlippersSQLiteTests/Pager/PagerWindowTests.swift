import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Synchronization
import Testing

@testable import SlippersSQLite

private typealias Post = ScriptedSource.Post
private typealias PostPager = Pager<Post>

/// The pager's window: a prefix of the cached pages, grown one page at a time.
@Suite struct PagerWindowTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let key = "GET /posts"

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    /// Caches the first `pages` pages of `source` as an earlier run would have.
    private func seed(_ source: ScriptedSource, pages: Int, in store: SQLiteCache? = nil) async throws {
        try await ListSync(
            storage: store ?? self.store, source: source, list: ListDescriptor(key: key, itemType: "Post")
        ).run(maxPages: pages)
    }

    private func pager(
        _ source: ScriptedSource, policy: CachePolicy = .cacheThenNetwork, initialWindow: Int = 1,
        store: SQLiteCache? = nil
    ) -> PostPager {
        PostPager(
            cache: store ?? self.store, source: source, list: ListDescriptor(key: key, of: Post.self),
            configuration: PagerConfiguration(policy: policy, initialWindow: initialWindow))
    }

    private func ids(_ pager: PostPager) async -> [Int] {
        await pager.state.items.map { $0.id.intValue ?? -1 }
    }

    @Test func aCacheOfManyPagesPublishesOnlyItsFirstPageFirst() async throws {
        try await seed(ScriptedSource(ids: Array(1...200), pageSize: 5), pages: 40)
        let source = ScriptedSource(ids: Array(1...200), pageSize: 5)
        let pager = pager(source, policy: .cacheOnly)
        let recorder = Recorder(await pager.states())
        await pager.start()
        await recorder.wait { $0.provenance == .cache }
        let first = try #require(await recorder.values.first { $0.provenance == .cache })
        #expect(first.items.map { $0.id.intValue ?? -1 } == Array(1...5))
        #expect(first.pages.map(\.index) == [0])
        #expect(first.total == 200)
        // The list's end is cached, but the window does not show it yet.
        #expect(try store.list(key)?.endReached == true)
        #expect(!first.endReached)
        #expect(source.requests.isEmpty)
    }

    @Test func anInitialWindowPublishesThatManyCachedPages() async throws {
        try await seed(ScriptedSource(ids: Array(1...50), pageSize: 5), pages: 4)
        let pager = pager(ScriptedSource(ids: Array(1...50), pageSize: 5), policy: .cacheOnly, initialWindow: 3)
        await pager.start()
        #expect(await ids(pager) == Array(1...15))
        #expect(await pager.state.pages.map(\.index) == [0, 1, 2])

        // More than is cached: the window holds what there is.
        let wide = self.pager(ScriptedSource(ids: Array(1...50), pageSize: 5), policy: .cacheOnly, initialWindow: 9)
        await wide.start()
        #expect(await ids(wide) == Array(1...20))
    }

    @Test func growingFromTheCacheSendsNoRequest() async throws {
        try await seed(ScriptedSource(ids: Array(1...30), pageSize: 5), pages: 4)
        let source = ScriptedSource(ids: Array(1...30), pageSize: 5)
        let pager = pager(source)
        await pager.start()
        // The first page was revalidated: one conditional request, answered 304.
        #expect(source.requests.count == 1)
        #expect(await pager.state.provenance == .network)
        for _ in 0..<3 { await pager.loadNextPageIfNeeded() }
        #expect(await ids(pager) == Array(1...20))
        #expect(source.requests.count == 1)
        #expect(await pager.state.provenance == .network)

        // The page after the cached ones comes from the network.
        await pager.loadNextPageIfNeeded()
        #expect(source.pagesAskedFor == [1, 5])
        #expect(await ids(pager) == Array(1...25))
    }

    @Test func aCacheOnlyPagerGrowsItsWindowFromTheCacheAndStopsAtItsEnd() async throws {
        try await seed(ScriptedSource(ids: Array(1...30), pageSize: 5), pages: 2)
        let offline = ScriptedSource(ids: Array(1...30), pageSize: 5)
        let pager = pager(offline, policy: .cacheOnly)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        #expect(await ids(pager) == Array(1...10))
        #expect(await pager.state.provenance == .cache)
        await pager.loadNextPageIfNeeded()
        #expect(await ids(pager) == Array(1...10))
        #expect(await !pager.state.endReached)
        #expect(offline.requests.isEmpty)
    }

    @Test func theEndIsReachedWhenTheWindowShowsEveryCachedPage() async throws {
        try await seed(ScriptedSource(ids: Array(1...15), pageSize: 5), pages: 10)
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        let pager = pager(source, policy: .cacheFirst(maxAge: 3600))
        await pager.start()
        #expect(await !pager.state.endReached)
        await pager.loadNextPageIfNeeded()
        #expect(await !pager.state.endReached)
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.endReached)
        await pager.loadNextPageIfNeeded()
        #expect(await ids(pager) == Array(1...15))
        #expect(source.requests.isEmpty)
    }

    @Test func offlineAFailedFetchGrowsTheWindowWithTheStalePageAndReportsTheError() async throws {
        try await seed(ScriptedSource(ids: Array(1...20), pageSize: 5), pages: 3)
        // An item was inserted at the top: the revalidated first page starts a new generation.
        let source = ScriptedSource(ids: [100] + Array(1...20), pageSize: 5)
        let pager = pager(source)
        await pager.start()
        // 5, pushed onto page 2, stays shown until page 2 is fetched.
        #expect(await ids(pager) == [100, 1, 2, 3, 4, 5])
        #expect(await !pager.state.isUnverified)

        source.failNext(1)
        await pager.loadNextPageIfNeeded()
        var state = await pager.state
        #expect(state.append.error is ScriptedSource.Failure)
        #expect(state.items.map { $0.id.intValue ?? -1 } == [100] + Array(1...10))
        #expect(state.pages.map(\.isSuperseded) == [false, true])
        #expect(state.isUnverified)
        #expect(source.pagesAskedFor == [1, 2])

        // Back online: the superseded page of the window is fetched again and replaced.
        await pager.retry()
        state = await pager.state
        #expect(state.append.error == nil)
        #expect(state.items.map { $0.id.intValue ?? -1 } == [100] + Array(1...10))
        #expect(state.pages.map(\.isSuperseded) == [false, false])
        #expect(source.pagesAskedFor == [1, 2, 2])
    }

    @Test func aFailedFetchWithNothingCachedAfterTheWindowLeavesItAsItWas() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        let pager = pager(source)
        await pager.start()
        source.failNext(1)
        await pager.loadNextPageIfNeeded()
        let state = await pager.state
        #expect(state.append.error is ScriptedSource.Failure)
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...5))
        #expect(state.pages.count == 1)
    }

    @Test func noIdIsPublishedTwiceAcrossTheWindow() async throws {
        try await seed(ScriptedSource(ids: Array(1...20), pageSize: 5), pages: 3)
        // Two items were removed at the top: the new first page overlaps the superseded second one.
        let source = ScriptedSource(ids: Array(3...20), pageSize: 5)
        let pager = pager(source, initialWindow: 3)
        await pager.start()
        #expect(await ids(pager) == Array(3...15))
        #expect(await pager.state.pages.map(\.isSuperseded) == [false, true, true])
        await pager.loadNextPageIfNeeded()
        #expect(await ids(pager) == Array(3...15))
        #expect(await pager.state.pages.map(\.isSuperseded) == [false, false, true])
    }

    @Test func anIdOnTwoCachedPagesOfOneGenerationIsPublishedOnce() async throws {
        let posts = ListDescriptor(key: key, itemType: "Post")
        try store.savePage(page([1, 2, 3], next: PageToken(2)), at: 0, in: posts)
        try store.savePage(page([3, 4, 5], next: PageToken(3)), at: 1, in: posts)
        let pager = pager(ScriptedSource(ids: [], pageSize: 3), policy: .cacheOnly)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        #expect(await ids(pager) == [1, 2, 3, 4, 5])
        #expect(await pager.state.pages.count == 2)
    }

    @Test func afterARefreshTheWindowKeepsItsSize() async throws {
        try await seed(ScriptedSource(ids: Array(1...30), pageSize: 5), pages: 4)
        let source = ScriptedSource(ids: Array(1...30), pageSize: 5)
        let pager = pager(source, policy: .cacheFirst(maxAge: 3600))
        await pager.start()
        await pager.loadNextPageIfNeeded()
        await pager.loadNextPageIfNeeded()
        source.setIDs([31] + Array(1...30))
        try await pager.refresh()
        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == [31] + Array(1...15))
        #expect(state.pages.map(\.isSuperseded) == [false, true, true])
        #expect(state.isUnverified)
        #expect(state.currentItemCount == 5)
    }

    @Test func networkOnlyWindowsTheCurrentGenerationAndNeverShowsAStalePage() async throws {
        try await seed(ScriptedSource(ids: Array(1...20), pageSize: 5), pages: 3)
        let source = ScriptedSource(ids: [100] + Array(1...20), pageSize: 5)
        let pager = pager(source, policy: .networkOnly)
        await pager.start()
        source.failNext(1)
        await pager.loadNextPageIfNeeded()
        var state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == [100, 1, 2, 3, 4])
        #expect(state.append.error is ScriptedSource.Failure)
        await pager.retry()
        state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == [100] + Array(1...9))
        #expect(state.pages.map(\.isSuperseded) == [false, false])
        #expect(source.pagesAskedFor == [1, 2, 2])
    }

    @Test func theDecodedItemsKeptAreTheWindowsOnly() async throws {
        try await seed(ScriptedSource(ids: Array(1...50), pageSize: 5), pages: 10)
        let pager = pager(ScriptedSource(ids: Array(1...50), pageSize: 5), policy: .cacheOnly)
        await pager.start()
        #expect(await pager.decodedItems.count == 5)
        await pager.loadNextPageIfNeeded()
        #expect(await pager.decodedItems.count == 10)
    }

    /// Scrolling through the network reads each new page once, not the whole window again.
    @Test func aPageFetchedAtTheEndOfTheWindowIsTheOnlyPageReadAgain() async throws {
        let log = StatementLog()
        let traced = try SQLiteCache(path: directory.path(), mode: .readWrite, tracingStatements: { log.append($0) })
        let pager = pager(ScriptedSource(ids: Array(1...100), pageSize: 5), store: traced)
        await pager.start()
        log.removeAll()
        for _ in 0..<6 { await pager.loadNextPageIfNeeded() }
        #expect(await ids(pager) == Array(1...35))
        let pageReads = log.selects.filter {
            $0 == SQLiteCache.pageRowByIndexSQL.trimmingCharacters(in: .whitespaces)
        }
        #expect(pageReads.count == 6)
    }

    /// An item that a new page and an earlier page both list shows the JSON the new page brought.
    @Test func anItemRepeatedOnAnEarlierPageTakesTheLatestJSON() async throws {
        let source = ScriptedSource(ids: [1, 2, 3, 4, 5, 3, 6, 7, 8, 9], pageSize: 5)
        let pager = pager(source, policy: .networkOnly)
        await pager.start()
        source.setIDs([1, 2, 3, 4, 5, 3, 6, 7, 8, 9], label: "v2")
        await pager.loadNextPageIfNeeded()
        let items = await pager.state.items
        #expect(items.map { $0.id.intValue ?? -1 } == Array(1...9))
        #expect(items.map(\.title) == ["v1 1", "v1 2", "v2 3", "v1 4", "v1 5", "v2 6", "v2 7", "v2 8", "v2 9"])
    }

    /// The SQL of every statement a cache's connections run.
    private final class StatementLog: Sendable {
        private let statements = Mutex<[String]>([])
        func append(_ sql: String) { statements.withLock { $0.append(sql) } }
        func removeAll() { statements.withLock { $0.removeAll() } }
        var selects: [String] {
            statements.withLock { $0 }.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                // GRDB checks that each new connection can read the file with a query of `sqlite_master`.
                .filter { $0.uppercased().hasPrefix("SELECT") && !$0.contains("sqlite_master") }
        }
    }

    @Test func theColdPathRunsOnlyKeyedQueriesAndReadsOnlyTheWindowsPages() async throws {
        try await seed(ScriptedSource(ids: Array(1...500), pageSize: 5), pages: 100)
        try store.close()
        let log = StatementLog()
        let traced = try SQLiteCache(path: directory.path(), mode: .readWrite, tracingStatements: { log.append($0) })
        log.removeAll()

        let pager = pager(ScriptedSource(ids: Array(1...500), pageSize: 5), policy: .cacheOnly, store: traced)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        await pager.loadNextPageIfNeeded()
        #expect(await ids(pager) == Array(1...15))

        let allowed = Set(SQLiteCache.windowReadQueries.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let selects = log.selects
        #expect(!selects.isEmpty)
        for sql in selects { #expect(allowed.contains(sql), "the pager ran \(sql)") }
        // One keyed read per page shown, however many pages are cached.
        let pageReads = selects.filter { $0 == SQLiteCache.pageRowByIndexSQL.trimmingCharacters(in: .whitespaces) }
        #expect(pageReads.count == 3)
    }

    private func page(_ ids: [Int], next: PageToken?) -> Page<RawItem> {
        Page(
            items: ids.map { RawItem(key: .integer($0), json: Data(#"{"id":\#($0),"title":"t\#($0)"}"#.utf8)) },
            token: nil, nextToken: next)
    }
}
