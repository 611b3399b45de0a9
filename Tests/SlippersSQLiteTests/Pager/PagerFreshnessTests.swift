import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Synchronization
import Testing

@testable import SlippersSQLite

private typealias Post = ScriptedSource.Post
private typealias PostPager = Pager<Post>

/// The pager's per-page freshness model: lazy revalidation, offline growth and backoff, lifetimes, origins.
@Suite struct PagerFreshnessTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let key = "GET /posts"

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    /// Caches the first `pages` pages of `source` as an earlier run would have.
    private func seed(_ source: ScriptedSource, pages: Int) async throws {
        try await ListSync(
            storage: store, source: source, list: ListDescriptor(key: key, itemType: "Post")
        ).run(maxPages: pages)
    }

    private func pager(
        _ source: ScriptedSource, policy: CachePolicy = .cacheThenNetwork, initialWindow: Int = 1,
        clock: TestClock = TestClock()
    ) -> PostPager {
        PostPager(
            cache: store, source: source, list: ListDescriptor(key: key, of: Post.self),
            configuration: PagerConfiguration(policy: policy, initialWindow: initialWindow, clock: clock.read))
    }

    private func ids(_ pager: PostPager) async -> [Int] {
        await pager.state.items.map { $0.id.intValue ?? -1 }
    }

    // MARK: Offline

    @Test func offlineAfterARefreshTheWindowGrowsThroughEveryCachedPageWithAHandfulOfRequests() async throws {
        try await seed(ScriptedSource(ids: Array(1...25), pageSize: 5), pages: 5)
        // The server changed its first page: the other cached pages are of the older generation.
        let source = ScriptedSource(ids: [100] + Array(1...25), pageSize: 5)
        let pager = pager(source)
        await pager.start()
        source.setOffline(true)
        for row in 0..<250 { await pager.loadNextPageIfNeeded(displayedRow: row) }

        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == [100] + Array(1...25))
        #expect(state.pages.count == 5)
        #expect(state.pageProvenances == [.network, .cache, .cache, .cache, .cache])
        #expect(state.append.error is ScriptedSource.Failure)
        #expect(state.nextRetryAt != nil)
        // The first page, then one failed request: the backoff holds every later row.
        #expect(source.requests.count == 2)

        source.setOffline(false)
        await pager.retry()
        #expect(await pager.state.append.error == nil)
        #expect(await pager.state.pageProvenances.prefix(2) == [.network, .network])
        #expect(source.requests.count == 3)
    }

    @Test func noRequestIsSentUntilTheBackoffEnds() async throws {
        let clock = TestClock()
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        let pager = pager(source, clock: clock)
        await pager.start()
        source.failNext(1)
        await pager.loadNextPageIfNeeded()
        let retryAt = try #require(await pager.state.nextRetryAt)
        #expect(retryAt == clock.now.addingTimeInterval(2))
        for _ in 0..<5 { await pager.loadNextPageIfNeeded() }
        #expect(source.requests.count == 2)

        clock.advance(by: 3)
        await pager.loadNextPageIfNeeded()
        #expect(source.requests.count == 3)
        #expect(await ids(pager) == Array(1...10))
        #expect(await pager.state.nextRetryAt == nil)
    }

    @Test func theBackoffDoublesUpToItsMaximum() {
        let backoff = OfflineBackoff(initial: 2, maximum: 10)
        #expect((1...5).map(backoff.delay(afterFailures:)) == [2, 4, 8, 10, 10])
    }

    // MARK: Refresh

    @Test func refreshRevalidatesEveryPageLazilyAndAChangeDeepShowsWithItsPage() async throws {
        let source = ScriptedSource(ids: Array(1...30), pageSize: 5)
        let clock = TestClock()
        let pager = pager(source, clock: clock)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        await pager.loadNextPageIfNeeded()
        source.edit(12, title: "edited")
        let sent = source.requests.count
        clock.advance(by: 1)

        try await pager.refresh()
        var state = await pager.state
        #expect(state.pages.map(\.isUnverified) == [false, true, true])
        #expect(state.pageProvenances == [.network, .cache, .cache])
        #expect(state.settledPageCount == 1)
        #expect(try store.pages(in: key).map(\.isUnverified) == [false, true, true])

        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.pageProvenances == [.network, .network, .cache])
        await pager.loadNextPageIfNeeded()
        state = await pager.state
        #expect(state.items.first { $0.id.rawValue == 12 }?.title == "edited")
        #expect(state.pageProvenances == [.network, .network, .network])
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...15))
        // One conditional request per page, each sent when its page came up.
        let revalidations = source.requests.dropFirst(sent)
        #expect(revalidations.count == 3)
        #expect(revalidations.allSatisfy { $0.validators?.etag != nil })
        #expect(try store.list(key)?.generation == 1)
    }

    @Test func aRefreshInAnotherProcessMarksThePagesUnverifiedHereToo() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        try await seed(source, pages: 3)
        try SQLiteCache(path: directory.path()).refresh()
        let pager = pager(source, policy: .cacheFirst(maxAge: 3600))
        await pager.start()
        #expect(source.requests.count == 4)
        await pager.loadNextPageIfNeeded()
        #expect(source.requests.count == 5)
        #expect(source.requests.last?.validators != nil)
    }

    // MARK: Resume

    @Test func aRelaunchOnAServerWithoutValidatorsRevalidatesByDigestAndResumes() async throws {
        let earlier = ScriptedSource(ids: Array(1...50), pageSize: 5)
        earlier.sendNoValidators()
        try await seed(earlier, pages: 5)
        let source = ScriptedSource(ids: Array(1...50), pageSize: 5)
        source.sendNoValidators()
        let pager = pager(source)
        await pager.start()
        while await pager.state.pages.count < 10 { await pager.loadNextPageIfNeeded() }
        #expect(source.pagesAskedFor == [1, 6, 7, 8, 9, 10])
        #expect(await ids(pager) == Array(1...50))
        #expect(try store.list(key)?.generation == 1)
        #expect(
            await pager.state.pageProvenances == [.network] + Array(repeating: .cache, count: 4)
                + Array(repeating: .network, count: 5))
    }

    // MARK: Lifetimes

    @Test func aPageFreshByItsLifetimeIsServedWithoutARequest() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        source.setCaching(PageCaching(headers: ["Cache-Control": "max-age=60"]))
        try await seed(source, pages: 2)
        let young = pager(source, clock: TestClock(offset: 10))
        await young.start()
        await young.loadNextPageIfNeeded()
        #expect(source.requests.count == 2)
        #expect(await young.state.pageProvenances == [.fresh, .fresh])

        let old = pager(source, clock: TestClock(offset: 120))
        await old.start()
        await old.loadNextPageIfNeeded()
        #expect(source.requests.count == 4)
        #expect(await old.state.pageProvenances == [.network, .network])
    }

    @Test func noCacheForcesARevalidationEvenWhenTheCacheIsYoung() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        source.setCaching(PageCaching(headers: ["Cache-Control": "no-cache"]))
        try await seed(source, pages: 1)
        let pager = pager(source, policy: .cacheFirst(maxAge: 3600))
        await pager.start()
        #expect(source.requests.count == 2)
        #expect(source.requests.last?.validators != nil)
    }

    @Test func staleIfErrorServesTheCacheWithoutAFailureWithinItsWindow() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        source.setCaching(PageCaching(headers: ["Cache-Control": "max-age=10, stale-if-error=600"]))
        try await seed(source, pages: 1)
        source.setOffline(true)

        let within = pager(source, policy: .cacheFirst(maxAge: 0), clock: TestClock(offset: 300))
        await within.start()
        #expect(await within.state.refresh.error == nil)
        #expect(await ids(within) == Array(1...5))

        let beyond = pager(source, policy: .cacheFirst(maxAge: 0), clock: TestClock(offset: 1000))
        await beyond.start()
        #expect(await beyond.state.refresh.error is ScriptedSource.Failure)
        #expect(await ids(beyond) == Array(1...5))
    }

    @Test func staleWhileRevalidateBoundsWhatIsShownBeforeTheNetworkAnswers() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        source.setCaching(PageCaching(headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60"]))
        try await seed(source, pages: 1)

        for (offset, showsCacheFirst) in [(30.0, true), (1000.0, false)] {
            let pager = pager(source, policy: .cacheFirst(maxAge: 0), clock: TestClock(offset: offset))
            let recorder = Recorder(await pager.states())
            await source.hold()
            let start = Task { await pager.start() }
            await source.waitForHeldRequest()
            #expect(await pager.state.provenance == (showsCacheFirst ? .cache : .none))
            await source.release()
            await start.value
            #expect(await recorder.values.last?.provenance == .network)
        }
    }

    @Test func laterPagesHonourStaleWhileRevalidateAndStaleIfErrorToo() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        source.setCaching(
            PageCaching(headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60, stale-if-error=600"]))
        try await seed(source, pages: 2)

        let revalidating = pager(source, policy: .cacheFirst(maxAge: 0), clock: TestClock(offset: 30))
        await revalidating.start()
        let sent = source.requests.count
        await revalidating.loadNextPageIfNeeded()
        // Shown at once, within stale-while-revalidate; the next call revalidates it.
        #expect(source.requests.count == sent)
        #expect(await ids(revalidating) == Array(1...10))
        #expect(await revalidating.state.settledPageCount == 1)
        await revalidating.loadNextPageIfNeeded()
        #expect(source.requests.count == sent + 1)
        #expect(source.requests.last?.validators != nil)
        #expect(await revalidating.state.settledPageCount == 2)

        // Past stale-while-revalidate but within stale-if-error, a failed revalidation is not reported.
        let late = pager(source, policy: .cacheFirst(maxAge: 0), clock: TestClock(offset: 300))
        await late.start()
        source.setOffline(true)
        let failedSoFar = source.requests.count
        await late.loadNextPageIfNeeded()
        let state = await late.state
        #expect(source.requests.count == failedSoFar + 1)
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(state.append.error == nil)
        #expect(state.nextRetryAt != nil)
        #expect(state.pageProvenances == [.network, .cache])
    }

    // MARK: Origins and drift

    @Test func originsArePerPageAndANotModifiedFirstPageConfirmsOnlyItself() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        try await seed(source, pages: 3)
        let pager = pager(source)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        let state = await pager.state
        #expect(state.provenance == .network)
        #expect(state.pageProvenances == [.network, .cache])
        #expect(source.requests.count == 4)
    }

    @Test func aCachedPageThatNoLongerDecodesIsSkippedOfflineAndRefetchedOnline() async throws {
        let posts = ListDescriptor(key: key, itemType: "Post")
        func page(_ ids: [Int], next: Int?, body: Bool) -> Page<RawItem> {
            let items = ids.map { id in
                RawItem(
                    key: .integer(id),
                    json: Data((#"{"id":\#(id),"title":"t\#(id)""# + (body ? #","body":"b"}"# : "}")).utf8))
            }
            return Page(items: items, token: id(next.map { $0 - 1 }), nextToken: next.map { PageToken($0) })
        }
        func id(_ number: Int?) -> PageToken? { number.flatMap { $0 > 1 ? PageToken($0) : nil } }
        try store.savePage(page([1, 2], next: 2, body: true), at: 0, in: posts)
        try store.savePage(page([3, 4], next: 3, body: false), at: 1, in: posts)
        try store.savePage(page([5, 6], next: nil, body: true), at: 2, in: posts)

        let offline = Pager<Strict>(
            cache: store, source: ScriptedSource(ids: [], pageSize: 2),
            list: ListDescriptor(key: key, itemType: "Post"),
            configuration: PagerConfiguration(policy: .cacheOnly))
        await offline.start()
        await offline.loadNextPageIfNeeded()
        await offline.loadNextPageIfNeeded()
        var state = await offline.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == [1, 2, 5, 6])
        #expect(state.undecodablePages == [1])
        #expect(state.pages.count == 3)

        let source = ScriptedSource(ids: Array(1...6), pageSize: 2)
        source.setExtraJSON(#","body":"new""#)
        let online = Pager<Strict>(
            cache: store, source: source, list: ListDescriptor(key: key, itemType: "Post"),
            configuration: PagerConfiguration(policy: .cacheFirst(maxAge: 3600)))
        await online.start()
        await online.loadNextPageIfNeeded()
        await online.loadNextPageIfNeeded()
        state = await online.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == [1, 2, 3, 4])
        #expect(state.undecodablePages.isEmpty)
        // Refetched whole: a 304 would have kept the undecodable copy.
        #expect(source.requests.count == 1)
        #expect(source.requests.first?.validators == nil)
    }

    @Test func aLocalEditIsMarkedUntilAFetchedPageBringsTheItemAgain() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        try await seed(source, pages: 2)
        try store.saveItem(
            RawItem(key: .integer(7), json: Data(#"{"id":7,"title":"mine"}"#.utf8)), type: "Post")
        let clock = TestClock()
        let pager = pager(source, clock: clock)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        var state = await pager.state
        #expect(state.locallyEditedKeys == [.integer(7)])
        #expect(state.items.first { $0.id.rawValue == 7 }?.title == "mine")
        // Page 2 did not change on the server: revalidating it keeps the local edit.
        clock.advance(by: 1)
        try await pager.refresh()
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.pageProvenances == [.network, .network])
        #expect(await pager.state.locallyEditedKeys == [.integer(7)])
        // The server changed page 2: its copy of 7 replaces the edit.
        source.edit(6, title: "theirs")
        clock.advance(by: 1)
        try await pager.refresh()
        await pager.loadNextPageIfNeeded()
        state = await pager.state
        #expect(state.locallyEditedKeys.isEmpty)
        #expect(state.items.first { $0.id.rawValue == 7 }?.title == "v1 7")
    }

    /// The app's new model: a field the cached JSON of older pages lacks.
    struct Strict: Decodable, Sendable {
        let id: ID<Strict>
        let title: String
        let body: String
    }
}

/// A clock a test moves by hand; it starts at the real time plus an offset.
final class TestClock: Sendable {
    private let time: Mutex<Date>

    init(offset: TimeInterval = 0) {
        time = Mutex(Date().addingTimeInterval(offset))
    }

    var now: Date { time.withLock { $0 } }

    var read: @Sendable () -> Date { { [self] in now } }

    func advance(by seconds: TimeInterval) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
