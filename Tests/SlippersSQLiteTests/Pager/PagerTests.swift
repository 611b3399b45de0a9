import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

private typealias Post = ScriptedSource.Post
private typealias PostPager = Pager<Post>

@Suite struct PagerTests {
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

    private func pager(_ source: ScriptedSource, policy: CachePolicy = .cacheThenNetwork, initialWindow: Int = 1)
        -> PostPager
    {
        PostPager(
            cache: store, source: source, list: ListDescriptor(key: key, of: Post.self),
            configuration: PagerConfiguration(policy: policy, initialWindow: initialWindow))
    }

    @Test func publishesTheCacheBeforeTheNetworkAnswers() async throws {
        let seeded = ScriptedSource(ids: Array(1...20), pageSize: 5)
        try await seed(seeded, pages: 2)
        let source = ScriptedSource(ids: [21] + Array(1...20), pageSize: 5)
        let pager = pager(source, initialWindow: 2)
        let recorder = Recorder(await pager.states())
        await source.hold()
        let start = Task { await pager.start() }

        // The request is sent and held at the server: the cached pages must already be out.
        await source.waitForHeldRequest()
        await recorder.wait { $0.provenance == .cache }
        let cached = try #require(await recorder.values.first { $0.provenance == .cache })
        #expect(cached.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(cached.age != nil)
        #expect(await !recorder.values.contains { $0.provenance == .network })

        await source.release()
        await start.value
        await recorder.wait { $0.provenance == .network }
        let origins = await recorder.values.map(\.provenance)
        #expect(origins.firstIndex(of: .cache)! < origins.firstIndex(of: .network)!)
        let fresh = await pager.state
        // The new first page pushed 5 onto page 2, not fetched yet: 5 stays shown, then the superseded page 2's 6…10.
        #expect(fresh.items.map { $0.id.intValue ?? -1 } == [21] + Array(1...10))
        #expect(fresh.isUnverified)
        #expect(fresh.pages.map(\.isSuperseded) == [false, true])
    }

    @Test func aFailedRefreshKeepsTheCachedItemsAndReportsTheError() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        try await seed(source, pages: 2)
        source.failNext(1)
        let pager = pager(source)
        await pager.start()
        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...5))
        #expect(state.provenance == .cache)
        #expect(state.refresh.error is ScriptedSource.Failure)
        #expect(state.append.error == nil)

        // The second page is cached in the current generation: it is read, not fetched.
        let sent = source.requests.count
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(source.requests.count == sent)
    }

    @Test func revalidatesWithTheCachedValidatorsAndANotModifiedAnswerRewritesNothing() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        try await seed(source, pages: 2)
        let before = try #require(try store.item(type: "Post", key: .integer(1))).updatedAt
        let pager = pager(source)
        await pager.start()
        #expect(source.requests.last?.validators?.etag != nil)
        let state = await pager.state
        #expect(state.provenance == .network)
        #expect(state.items.count == 5)
        #expect(!state.isUnverified)
        #expect(try store.item(type: "Post", key: .integer(1))?.updatedAt == before)
        #expect(try store.list(key)?.generation == 1)
    }

    @Test func refreshInvalidatesInTheStoreAndSwapsInTheNewFirstPageWithoutDuplicates() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        let pager = pager(source)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.items.count == 10)

        // Three items were inserted at the top on the server.
        source.setIDs([23, 22, 21] + Array(1...20))
        await source.hold()
        let refresh = Task { try await pager.refresh() }
        await source.waitForHeldRequest()
        let otherProcess = try SQLiteCache(path: directory.path(), mode: .readOnly)
        #expect(try otherProcess.list(key)?.invalidatedAt != nil)
        await source.release()
        try await refresh.value

        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == [23, 22, 21] + Array(1...10))
        #expect(Set(state.items.map(\.id)).count == state.items.count)
        #expect(state.pages.map(\.isSuperseded) == [false, true])
        #expect(try otherProcess.list(key)?.invalidatedAt == nil)
        await pager.loadNextPageIfNeeded()
        let next = await pager.state
        // 8, 9 and 10 were pushed onto page 3, not fetched yet: they stay shown until it is.
        #expect(next.items.map { $0.id.intValue ?? -1 } == [23, 22, 21] + Array(1...10))
        #expect(next.pages.map(\.isSuperseded) == [false, false])
        #expect(source.pagesAskedFor.suffix(2) == [1, 2])
    }

    @Test func aMetaRefresherRefreshesSeveralPagers() async throws {
        let posts = ScriptedSource(ids: Array(1...5), pageSize: 5)
        let comments = ScriptedSource(ids: Array(100...104), pageSize: 5)
        let first = pager(posts)
        let second = Pager<Post>(
            cache: store, source: comments, list: ListDescriptor(key: "GET /comments", of: Post.self))
        let group = MetaRefresher()
        group.add(first)
        group.add(second)
        try await group.refresh()
        #expect(await first.state.items.count == 5)
        #expect(await second.state.items.map { $0.id.intValue ?? -1 } == Array(100...104))
    }

    @Test func continuesFromTheStoredResumeTokenOfAnEarlierRun() async throws {
        let source = ScriptedSource(ids: Array(1...23), pageSize: 5)
        try await seed(source, pages: 2)
        let later = ScriptedSource(ids: Array(1...23), pageSize: 5)
        let pager = pager(later, policy: .cacheFirst(maxAge: 3600))
        await pager.start()
        #expect(later.requests.isEmpty)
        for _ in 0..<5 { await pager.loadNextPageIfNeeded() }
        #expect(later.pagesAskedFor == [3, 4, 5])
        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...23))
        #expect(state.endReached)
        #expect(state.total == 23)
    }

    @Test func errorsOfLaterPagesAreKeptApartAndAFailedAppendCanBeRetried() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        // A backoff longer than any test run, so that a loaded machine cannot let it expire.
        let pager = PostPager(
            cache: store, source: source, list: ListDescriptor(key: key, of: Post.self),
            configuration: PagerConfiguration(backoff: OfflineBackoff(initial: 3600, maximum: 3600)))
        await pager.start()
        source.failNext(1)
        await pager.loadNextPageIfNeeded()
        var state = await pager.state
        #expect(state.append.error is ScriptedSource.Failure)
        #expect(state.refresh.error == nil)
        #expect(state.items.count == 5)
        // No request while the backoff runs; retry() asks at once.
        await pager.loadNextPageIfNeeded()
        #expect(source.requests.count == 2)
        await pager.retry()
        state = await pager.state
        #expect(state.append.error == nil)
        #expect(state.items.count == 10)
    }

    @Test func concurrentCallsCoalesceIntoOneRequestAndTheEndIsANoOp() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        let pager = pager(source)
        await pager.start()
        await source.hold()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { await pager.loadNextPageIfNeeded() } }
            await source.waitForHeldRequest()
            #expect(await pager.state.append.isLoading)
            await source.release()
        }
        #expect(source.pagesAskedFor == [1, 2])
        #expect(await pager.state.endReached)
        await pager.loadNextPageIfNeeded()
        #expect(source.requests.count == 2)
    }

    @Test func theInfiniteListTriggerDrivesItByRowIndex() async throws {
        let source = ScriptedSource(ids: Array(1...30), pageSize: 10)
        let pager = pager(source)
        await pager.start()
        for row in 0..<10 { await pager.loadNextPageIfNeeded(displayedRow: row, distanceFromEnd: 3) }
        #expect(source.pagesAskedFor == [1, 2])
        let trigger = InfiniteListTrigger(pageSize: 10, distanceFromEnd: 3, loadedPages: 2) {}
        #expect(trigger.pagesAskedFor == 2)
        for row in 10..<20 { await pager.loadNextPageIfNeeded(displayedRow: row, distanceFromEnd: 3) }
        #expect(source.pagesAskedFor == [1, 2, 3])
    }

    @Test func cacheFirstSendsNoRequestWhileTheCacheIsFreshAndOneWhenItIsStale() async throws {
        let seeded = ScriptedSource(ids: Array(1...10), pageSize: 5)
        try await seed(seeded, pages: 1)
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        await pager(source, policy: .cacheFirst(maxAge: 3600)).start()
        #expect(source.requests.isEmpty)
        try store.invalidate(key)
        await pager(source, policy: .cacheFirst(maxAge: 3600)).start()
        #expect(source.requests.count == 1)
        let old = PostPager(
            cache: store, source: source, list: ListDescriptor(key: key, of: Post.self),
            configuration: PagerConfiguration(
                policy: .cacheFirst(maxAge: 60), clock: { Date().addingTimeInterval(120) }))
        await old.start()
        #expect(source.requests.count == 2)
    }

    @Test func networkFirstFallsBackToTheCacheOnFailure() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        try await seed(source, pages: 2)
        let pager = pager(source, policy: .networkFirst)
        let recorder = Recorder(await pager.states())
        await pager.start()
        #expect(await !recorder.values.contains { $0.provenance == .cache })
        #expect(await pager.state.provenance == .network)

        source.failNext(1)
        let failing = self.pager(source, policy: .networkFirst)
        await failing.start()
        let state = await failing.state
        #expect(state.provenance == .cache)
        #expect(state.items.count == 5)
        #expect(state.refresh.error is ScriptedSource.Failure)
    }

    @Test func cacheOnlyNeverTouchesTheNetwork() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        try await seed(source, pages: 1)
        let offline = ScriptedSource(ids: Array(1...10), pageSize: 5)
        let pager = pager(offline, policy: .cacheOnly)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        try await pager.refresh()
        #expect(offline.requests.isEmpty)
        #expect(await pager.state.items.count == 5)
    }

    @Test func networkOnlyPublishesOnlyWhatItFetchedAndStillStoresIt() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        try await seed(source, pages: 3)
        let pager = pager(source, policy: .networkOnly)
        let recorder = Recorder(await pager.states())
        await pager.start()
        #expect(await !recorder.values.contains { $0.provenance == .cache })
        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...5))
        #expect(state.pages.count == 1)
        #expect(try store.list(key)?.pageCount == 3)
    }

    @Test func cancellingTheWaitingTaskCancelsTheRequestAndLeavesTheStoreUnchanged() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        let pager = pager(source)
        await pager.start()
        let before = try #require(try store.list(key))
        await source.hold()
        let task = Task { await pager.loadNextPageIfNeeded() }
        await source.waitForHeldRequest()
        task.cancel()
        await source.release()
        await task.value
        let after = try #require(try store.list(key))
        #expect(after.pageCount == before.pageCount)
        #expect(after.resumeToken == before.resumeToken)
        let state = await pager.state
        #expect(!state.append.isLoading)
        #expect(state.append.error == nil)
        #expect(state.items.count == 5)
    }
}
