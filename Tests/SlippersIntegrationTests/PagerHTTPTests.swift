import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// The cached pager over the HTTP page source, against the fixture API on 127.0.0.1.
@Suite struct PagerHTTPTests {
    typealias HTTPPager = Pager<FixtureItem>

    let directory: TemporaryDirectory
    let store: SQLiteCache
    let server: FixtureServer
    let source: HTTPPageSource

    init() async throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
        server = FixtureServer(configuration: .init(itemCount: 45, pageSize: 10))
        try await server.start()
        let configuration = try #require(ServerConfiguration(baseURL: server.baseURL))
        let client = APIClient(configuration: configuration, options: APIClient.Options(retryPolicy: .none))
        source = HTTPPageSource(
            client: client, url: server.url(.page),
            style: .pageNumber(firstPage: 1, pageSize: 10, itemsKeyPath: "results"))
    }

    private func pager(_ policy: CachePolicy = .cacheThenNetwork) -> HTTPPager {
        HTTPPager(
            cache: store, source: source,
            list: ListDescriptor(key: source.listKey, of: FixtureItem.self),
            configuration: PagerConfiguration(policy: policy))
    }

    /// Caches the first `pages` pages, as an earlier run would have.
    private func seed(pages: Int) async throws {
        try await ListSync(
            storage: store, source: source,
            list: ListDescriptor(key: source.listKey, itemType: "FixtureItem")
        ).run(maxPages: pages)
        server.resetRequests()
    }

    @Test func theCachedSnapshotIsPublishedWhileTheServerHoldsItsAnswer() async throws {
        try await seed(pages: 2)
        let pager = pager()
        let recorder = Recorder(await pager.states())
        server.hold()
        let start = Task { await pager.start() }
        await server.waitForRequests(1)
        await recorder.wait { $0.provenance == .cache }
        #expect(await !recorder.values.contains { $0.provenance == .network })
        // The window: the first cached page only, though two are cached.
        let cached = try #require(await recorder.values.first { $0.provenance == .cache })
        #expect(cached.items.map { $0.id.intValue ?? -1 } == Array(1...10))

        server.release()
        await start.value
        let origins = await recorder.values.map(\.provenance)
        let cacheIndex = try #require(origins.firstIndex(of: .cache))
        let networkIndex = try #require(origins.firstIndex(of: .network))
        #expect(cacheIndex < networkIndex)
        // The revalidation was conditional, and the unchanged page came back 304.
        #expect(server.requests.first?.ifNoneMatch != nil)
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(await pager.state.refresh.error == nil)
        // The second page is cached in the confirmed generation: it is read, not fetched.
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...20))
        #expect(server.requestCount == 1)
    }

    @Test func withTheServerDownTheCachedItemsStayPublishedAndTheErrorIsReported() async throws {
        try await seed(pages: 2)
        await server.stop()
        let pager = pager()
        await pager.start()
        let state = await pager.state
        #expect(state.items.count == 10)
        #expect(state.provenance == .cache)
        let error = try #require(state.refresh.error as? NetworkError)
        #expect(error.kind == .transport(.cannotConnect))
        // Offline, the window still grows through the cached pages.
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...20))
        #expect(await pager.state.append.error == nil)
    }

    @Test func aServerErrorKeepsTheCacheToo() async throws {
        try await seed(pages: 1)
        server.inject(.status(500), count: 1)
        let pager = pager()
        await pager.start()
        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect((state.refresh.error as? NetworkError)?.status == 500)
    }

    @Test func cacheFirstSendsNoRequestWhileTheCacheIsFresh() async throws {
        try await seed(pages: 2)
        let pager = pager(.cacheFirst(maxAge: 3600))
        await pager.start()
        #expect(await pager.state.items.count == 10)
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.items.count == 20)
        #expect(server.requestCount == 0)
    }

    @Test func pagingToTheEndCachesEveryIdOnce() async throws {
        let pager = pager()
        await pager.start()
        while await !pager.state.endReached { await pager.loadNextPageIfNeeded() }
        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...45))
        #expect(state.append.error == nil)
        #expect(server.requestCount == 5)
    }

    @Test func refreshShowsItemsInsertedAtTheTopFirstWithoutDuplicates() async throws {
        let pager = pager()
        await pager.start()
        await pager.loadNextPageIfNeeded()
        server.insertAtTop(count: 3)
        try await pager.refresh()
        let ids = await pager.state.items.map { $0.id.intValue ?? -1 }
        #expect(ids.prefix(3) == [48, 47, 46])
        #expect(Set(ids).count == ids.count)
        while await !pager.state.endReached { await pager.loadNextPageIfNeeded() }
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == [48, 47, 46] + Array(1...45))
    }
}
