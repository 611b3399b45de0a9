import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

@testable import SlippersKit

/// A status of a timeline as Mastodon's API documents it: string ids (snowflakes), newest first.
private struct Status: Codable, Identifiable, CacheIdentifiable, Sendable, Equatable {
    let id: ID<Status>
    let content: String
}

/// A model whose `id` is declared as a number, for a server whose ids are strings.
private struct Misdeclared: Codable, Identifiable, CacheIdentifiable, Sendable {
    let id: Int
    let content: String
}

/// Serves a Mastodon-style home timeline of `count` statuses (``FixtureServer/serveMastodonTimeline(at:posts:privateToEveryone:)``).
private func serveTimeline(on server: FixtureServer, count: Int, privateToEveryone: Bool = false) {
    server.serveMastodonTimeline(posts: FeedPosts(count), privateToEveryone: privateToEveryone)
}

@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListFeedTests {
    /// Shows each new last row once, as a view does, until the list stops growing or holds `count` rows.
    private func scroll<Item>(_ list: PagedList<Item>, to count: Int = .max) async {
        var reported = 0
        var quiet = 0
        // Bounded by a deadline, not a count of turns: under a loaded machine a turn takes longer.
        let deadline = ContinuousClock.now + .seconds(60)
        while quiet < 3, ContinuousClock.now < deadline {
            if list.items.count > reported, list.items.count < count {
                reported = list.items.count
                list.rowAppeared(at: reported - 1)
                quiet = 0
            } else {
                quiet = list.isLoading || list.isPulling ? 0 : quiet + 1
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// A list of a timeline of 50 statuses, loaded: its first page shown, or its error.
    private func loadedTimeline<Item>(of type: Item.Type, on fixture: Fixture) async throws -> PagedList<Item> {
        serveTimeline(on: fixture.server, count: 50)
        let list = PagedList<Item>(
            url: fixture.server.url(path: "/api/v1/timelines/home"), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { !list.isRefreshing }
        return list
    }

    @Test func aTimelineOfStringIDsPagesByItsLinkHeaderToTheEnd() async throws {
        let fixture = try await Fixture()
        let list = try await loadedTimeline(of: Status.self, on: fixture)
        #expect(list.refreshError == nil, "\(String(describing: list.refreshError))")
        #expect(list.items.count == 20)
        #expect(list.items.first?.id == "109000000000000050")
        await scroll(list)
        await waitUntil { list.endReached || list.appendError != nil }
        #expect(list.items.count == 50)
        #expect(list.items.last?.id == ID<Status>("109000000000000001"))
        await fixture.server.stop()
    }

    @Test func aPageThatDoesNotDecodeIsAnErrorNamingTheItemAndTheMember() async throws {
        let fixture = try await Fixture()
        let list = try await loadedTimeline(of: Misdeclared.self, on: fixture)
        #expect(list.items.isEmpty)
        let error = try #require(list.refreshError as? PagerError)
        #expect(error.code == .itemsDoNotDecode)
        #expect(error.itemIndex == 0)
        #expect(error.member == "id")
        #expect("\(error)".hasPrefix("item 0 of page 0 does not decode as Misdeclared: `id`: "), "\(error)")
        await fixture.server.stop()
    }

    @Test func anAccountsPrivateTimelineStaysOffline() async throws {
        let fixture = try await Fixture()
        serveTimeline(on: fixture.server, count: 50)
        let url = fixture.server.url(path: "/api/v1/timelines/home")
        let signedIn = HTTPListConfiguration(client: fixture.client, headers: ["Authorization": "Bearer ann"])
        let online = PagedList<Status>(url: url, cache: fixture.store, configuration: signedIn, account: Account("ann"))
        await online.load()
        await waitUntil { online.items.count == 20 && !online.isRefreshing }
        #expect(!online.state.isHeldInMemory)

        fixture.server.inject(.status(503), count: 1_000)
        let offline = PagedList<Status>(
            url: url, cache: fixture.store, configuration: signedIn, account: Account("ann"))
        await offline.load()
        await waitUntil { !offline.isRefreshing }
        #expect(offline.items.count == 20)
        #expect(offline.items.first?.id == "109000000000000050")
        await fixture.server.stop()
    }

    @Test func anAnonymousListOfNoStorePagesSaysItsRowsAreHeldInMemoryOnly() async throws {
        let fixture = try await Fixture()
        serveTimeline(on: fixture.server, count: 50, privateToEveryone: true)
        let list = PagedList<Status>(
            url: fixture.server.url(path: "/api/v1/timelines/home"), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { list.items.count == 20 && !list.isRefreshing }
        #expect(list.state.isHeldInMemory)
        await fixture.server.stop()
    }

    /// The path of the test's timeline requests, counted.
    private func timelineRequests(_ fixture: Fixture) -> Int {
        fixture.server.requests.filter { $0.path == "/api/v1/timelines/home" }.count
    }

    @Test func aSyncFillsAFeedsGapAndEndsExactOnlyWhenNoneIsLeft() async throws {
        let fixture = try await Fixture()
        let posts = FeedPosts(300)
        fixture.server.serveMastodonTimeline(posts: posts)
        let url = fixture.server.url(path: "/api/v1/timelines/home")
        let list = PagedList<Status>(
            url: url, cache: fixture.store, configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { list.items.count == 20 && !list.isRefreshing }
        let key = try #require(list.pager?.list.key)
        try fixture.store.setNewestFirst(true, for: key)
        posts.post(200)
        await list.refresh()
        #expect(list.gaps.count == 1)

        // Limited to fewer pages than the gap needs: loud, the gap is still there.
        let limited = await #expect(throws: IncompleteList.self) {
            try await Syncer().run(
                SyncRequest(url: url.absoluteString, limits: .init(maxPages: 16)), into: fixture.store)
        }
        #expect(limited?.gaps == 1)
        let report = try await Syncer().run(SyncRequest(url: url.absoluteString), into: fixture.store)
        #expect(try fixture.store.list(key)?.gapCount == 0)
        #expect(try fixture.store.list(key)?.itemCount == 500)
        #expect(report.itemsCached == 500)
        await fixture.server.stop()
    }

    /// A list of the fixture's home timeline, not loaded: what each launch of an app makes.
    private func openTimeline(on fixture: Fixture) -> PagedList<Status> {
        PagedList<Status>(
            url: fixture.server.url(path: "/api/v1/timelines/home"), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
    }

    /// A list of the timeline of `posts`, served by the fixture, loaded and scrolled to `count` items (its end by default).
    private func scrolledTimeline(_ posts: FeedPosts, on fixture: Fixture, to count: Int = .max) async -> PagedList<
        Status
    > {
        fixture.server.serveMastodonTimeline(posts: posts)
        let list = openTimeline(on: fixture)
        await list.load()
        await waitUntil { list.items.count == 20 && !list.isRefreshing }
        await scroll(list, to: count)
        await waitUntil { !list.isLoading }
        return list
    }

    @Test func aBurstLeavesAGapThatIsShownKeptAcrossALaunchAndFilledWithNothingLost() async throws {
        let fixture = try await Fixture()
        let posts = FeedPosts(1_000)
        let list = await scrolledTimeline(posts, on: fixture, to: 200)
        #expect(list.items.count == 200)
        let key = try #require(list.pager?.list.key)
        try fixture.store.setNewestFirst(true, for: key)

        // A burst of 500, then a pull to refresh: one request, the new page at the top, a gap below it.
        posts.post(500)
        let before = timelineRequests(fixture)
        await list.refresh()
        #expect(timelineRequests(fixture) - before == 1)
        #expect(list.items.count == 220)
        #expect(list.items.first?.id == "109000000000001500")
        #expect(list.items[20].id == "109000000000001000")
        #expect(list.gaps.map(\.afterIndex) == [19])
        let rows = list.rows
        #expect(rows.count == 221)
        if case .gap(let gap) = rows[20] { #expect(gap == list.gaps.first) } else { Issue.record("no gap row") }

        // The cache says so: one gap.
        #expect(try fixture.store.list(key)?.gapCount == 1)

        // A relaunch, offline: the same runs and the same gap.
        fixture.server.inject(.status(503), count: 1)
        let relaunched = openTimeline(on: fixture)
        await relaunched.load()
        await waitUntil { !relaunched.isRefreshing }
        relaunched.rowAppeared(at: 0)
        #expect(relaunched.gaps.map(\.afterIndex) == [19])
        #expect(relaunched.items.first?.id == "109000000000001500")

        // Showing the gap's edge fills it: 480 items in at most 480 / 20 + 1 requests, none lost.
        let beforeFill = timelineRequests(fixture)
        list.rowAppeared(at: 19)
        // Bounded by a deadline, not a count of turns: under a loaded machine a turn takes longer.
        let deadline = ContinuousClock.now + .seconds(60)
        while !list.gaps.isEmpty || list.isLoading, ContinuousClock.now < deadline {
            if let gap = list.gaps.first { list.rowAppeared(at: gap.afterIndex) }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(list.gaps.isEmpty)
        #expect(try fixture.store.list(key)?.gapCount == 0)
        #expect(timelineRequests(fixture) - beforeFill <= 25)
        #expect(list.items.count == 700)
        #expect(
            list.items.map(\.id) == (801...1_500).reversed().map { ID<Status>(String(109_000_000_000_000_000 + $0)) })
        await fixture.server.stop()
    }

    @Test func aTimelineReadToItsEndShowsABurstOfSeveralPagesWithoutAHoleAtTheNextLaunch() async throws {
        let fixture = try await Fixture()
        let posts = FeedPosts(60)
        let list = await scrolledTimeline(posts, on: fixture)
        #expect(list.items.count == 60)
        #expect(list.endReached)
        let key = try #require(list.pager?.list.key)
        try fixture.store.setNewestFirst(true, for: key)

        // A burst of 45, more than two pages, then a launch: the new items sit above the old ones.
        posts.post(45)
        let all = (1...105).reversed().map { ID<Status>(String(109_000_000_000_000_000 + $0)) }
        let relaunched = openTimeline(on: fixture)
        await relaunched.load()
        await waitUntil { !relaunched.isRefreshing }
        #expect(relaunched.refreshError == nil, "\(String(describing: relaunched.refreshError))")
        #expect(relaunched.items.first?.id == all.first)
        #expect(Array(all.prefix(relaunched.items.count)) == relaunched.items.map(\.id))
        #expect(relaunched.gaps.isEmpty)
        await scroll(relaunched)
        await waitUntil { !relaunched.isLoading }
        #expect(relaunched.items.map(\.id) == all)
        await fixture.server.stop()
    }
}
