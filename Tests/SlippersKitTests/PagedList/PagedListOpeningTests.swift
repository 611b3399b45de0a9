import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

@testable import SlippersKit

/// A post of a feed: string ids, newest first.
private struct Post: Codable, Identifiable, CacheIdentifiable, Sendable, Equatable {
    let id: ID<Post>
    let content: String?
}

/// The id of post `number` of a fixture feed.
private func post(_ number: Int) -> ID<Post> { ID(FeedPosts.id(number)) }

/// The post numbers of a list's items, in order.
@MainActor private func numbers(_ list: PagedList<Post>) -> [Int] {
    list.items.map { ($0.id.stringValue.flatMap { Int($0) } ?? 0) - 109_000_000_000_000_000 }
}

@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListOpeningTests {
    private let timeline = "/api/v1/timelines/home"
    private let channel = "/api/v10/channels/1/messages"

    private func requests(_ fixture: Fixture, _ path: String) -> Int {
        fixture.server.requests.filter { $0.path == path }.count
    }

    /// Reports rows shown from `index` up to the top, one at a time, as a reader scrolling up
    /// does, until the list's first row is post `top` or nothing changes.
    private func scrollUp(_ list: PagedList<Post>, from index: Int, to top: Int) async throws {
        var row = index
        for _ in 0..<2_000 where numbers(list).first != top || !list.gaps.isEmpty {
            if let gap = list.gaps.last(where: { $0.afterIndex < row }), row > gap.afterIndex + 1 {
                row = gap.afterIndex + 1
            }
            list.rowAppeared(at: row)
            if !list.isLoading, !list.isPulling, let opened = list.gaps.last, opened.afterIndex < row {
                list.rowAppeared(at: opened.afterIndex + 1)
            }
            if row > 0, !list.gaps.contains(where: { $0.afterIndex == row - 1 }) { row -= 1 }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test func aListOpensAtACachedItemFromTheCacheOfflineAndItsSavedPositionAfterARelaunch() async throws {
        let fixture = try await Fixture()
        fixture.server.serveMastodonTimeline(posts: FeedPosts(200))
        let url = fixture.server.url(path: timeline)
        let settings = HTTPListConfiguration(client: fixture.client)
        let list = PagedList<Post>(url: url, cache: fixture.store, configuration: settings)
        await list.load()
        for _ in 0..<6 { await list.loadNextPage() }
        #expect(list.items.count == 140)
        list.savePosition(post(90))

        // Offline: the item's page and the pages above it come from the cache, with no request.
        fixture.server.inject(.status(503), count: 1_000)
        let before = requests(fixture, timeline)
        let opened = PagedList<Post>(
            url: url, cache: fixture.store, configuration: settings, around: .item(post(150)))
        await opened.load()
        #expect(opened.openedAt == post(150))
        #expect(numbers(opened).contains(150))
        #expect(numbers(opened).prefix(3) == [200, 199, 198])
        #expect(requests(fixture, timeline) - before <= 1)

        let resumed = PagedList<Post>(url: url, cache: fixture.store, configuration: settings, around: .savedPosition)
        await resumed.load()
        #expect(resumed.openedAt == post(90))
        await fixture.server.stop()
    }

    @Test func aMastodonTimelineOpensAtAnUncachedItemAndPagesBothWaysUntilTheRunsMeet() async throws {
        let fixture = try await Fixture()
        fixture.server.serveMastodonTimeline(posts: FeedPosts(500))
        let url = fixture.server.url(path: timeline)
        let settings = HTTPListConfiguration(client: fixture.client)

        // A deep link to post 250 on a fresh cache: the head, then min_id and max_id around it.
        let list = PagedList<Post>(url: url, cache: fixture.store, configuration: settings, around: .item(post(250)))
        await list.load()
        #expect(list.refreshError == nil, "\(String(describing: list.refreshError))")
        #expect(requests(fixture, timeline) == 3)
        #expect(list.openedAt == post(250))
        #expect(numbers(list) == Array((481...500).reversed()) + Array((231...270).reversed()))
        #expect(list.gaps.map(\.afterIndex) == [19])
        let key = try #require(list.pager?.list.key)
        #expect(try fixture.store.newestFirst(key) == true)

        // Older: the run's continuation (max_id of its last) grows it at its end.
        await list.loadNextPage()
        #expect(numbers(list).suffix(2) == [212, 211])

        // Newer: the reader scrolls up from the item; the gap fills from below (min_id) until the
        // runs meet, 210 items in at most 210 / 20 + 1 requests.
        let beforeFill = requests(fixture, timeline)
        let anchor = try #require(list.items.firstIndex { $0.id == post(250) })
        try await scrollUp(list, from: anchor, to: 500)
        #expect(list.gaps.isEmpty)
        #expect(requests(fixture, timeline) - beforeFill <= 12)
        #expect(fixture.server.requests.filter { $0.query["min_id"] != nil }.count >= 11)
        #expect(numbers(list) == Array((211...500).reversed()))

        // A relaunch, offline: the same list, opened at the same item from the cache.
        fixture.server.inject(.status(503), count: 1_000)
        let relaunched = PagedList<Post>(
            url: url, cache: fixture.store, configuration: settings, around: .item(post(250)))
        await relaunched.load()
        #expect(relaunched.openedAt == post(250))
        #expect(numbers(relaunched).contains(250))
        #expect(relaunched.gaps.isEmpty)
        await fixture.server.stop()
    }

    @Test func aDiscordChannelOpensAroundAnItemInOneRequestWithItsDeclaredParameters() async throws {
        let fixture = try await Fixture()
        fixture.server.serveDiscordChannel(posts: FeedPosts(1_000))
        var settings = HTTPListConfiguration(client: fixture.client)
        settings.feedParameters = FeedParameters(older: "before", newer: "after", around: "around")
        let url = fixture.server.url(path: channel)
        let list = PagedList<Post>(
            url: url, style: .afterLastItem(parameter: "before", itemsKeyPath: ""), cache: fixture.store,
            configuration: settings,
            around: .item(post(300)))
        await list.load()
        #expect(list.refreshError == nil, "\(String(describing: list.refreshError))")
        #expect(requests(fixture, channel) == 2)
        #expect(list.openedAt == post(300))
        #expect(numbers(list) == Array((951...1_000).reversed()) + Array((276...325).reversed()))
        #expect(list.gaps.count == 1)

        // Scrolling up from the item fills the gap with `after` until the runs meet.
        let anchor = try #require(list.items.firstIndex { $0.id == post(300) })
        try await scrollUp(list, from: anchor, to: 1_000)
        #expect(list.gaps.isEmpty)
        #expect(numbers(list) == Array((276...1_000).reversed()))
        #expect(fixture.server.requests.filter { $0.query["after"] != nil }.count >= 13)
        await fixture.server.stop()
    }

    @Test func aJSONAPIFeedOpensAtAnUncachedItemThroughTheLinksInItsBody() async throws {
        let fixture = try await Fixture()
        fixture.server.serveJSONAPIFeed(posts: FeedPosts(400))
        let url = fixture.server.url(path: "/jsonapi/posts")
        let list = PagedList<Post>(
            url: url, style: .nextURL(keyPath: "links.next", itemsKeyPath: "data"), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client), around: .item(post(100)))
        await list.load()
        #expect(list.refreshError == nil, "\(String(describing: list.refreshError))")
        #expect(requests(fixture, "/jsonapi/posts") == 3)
        #expect(list.openedAt == post(100))
        #expect(numbers(list) == Array((381...400).reversed()) + Array((81...120).reversed()))
        #expect(list.gaps.count == 1)
        await fixture.server.stop()
    }

    @Test func aServerWithNoWayAroundAnItemOpensAtTheHeadAndSaysWhy() async throws {
        let fixture = try await Fixture()
        fixture.server.serveDiscordChannel(posts: FeedPosts(300))
        let list = PagedList<Post>(
            url: fixture.server.url(path: channel), style: .afterLastItem(parameter: "before", itemsKeyPath: ""),
            cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client), around: .item(post(100)))
        await list.load()
        let error = try #require(list.refreshError as? PagerError)
        #expect(error.code == .cannotOpenAtItem)
        #expect("\(error)".contains("offers no way to ask for the items around an item"), "\(error)")
        #expect(list.openedAt == nil)
        #expect(numbers(list).first == 300)
        #expect(list.items.count == 50)
        await fixture.server.stop()
    }
}
