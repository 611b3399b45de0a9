import Foundation
import LocalAPI
import SlippersKit

/// A newest-first feed in an app's `PagedList`, against a server that follows Mastodon's
/// documented timeline contract: what a burst, its gap, opening at an item and a fast reader cost.
enum FeedFigures {
    /// 200 posts read, then 500 new ones and a pull to refresh: the requests until the first new
    /// row and the gap's mark; the requests that fill the gap; opening a relaunched list at a
    /// cached post while the server fails; and 1 000 random schedules of a reader faster than the
    /// network, none of which may leave the list stalled.
    static let feed = FigureGroup(
        id: "feed",
        summary: "ours: a Mastodon-style feed in a PagedList: a burst, its gap, opening at an item, stalls"
    ) { context in
        let server = FixtureServer()
        try Blocking.run { try await server.start() }
        defer { Blocking.runIgnoringErrors { await server.stop() } }
        let posts = FeedPosts(1_000)
        server.serveMastodonTimeline(posts: posts)
        let path = try context.makeDirectory("feed").appendingPathComponent("cache.sqlite").path
        let url = server.url(path: "/api/v1/timelines/home")
        guard let configuration = ServerConfiguration(baseURL: url) else { throw LiveListFigureError.noHost }
        let client = APIClient(configuration: configuration)
        let timelineRequests: @Sendable () -> Int = {
            server.requests.filter { $0.path == "/api/v1/timelines/home" }.count
        }
        let burst = try Blocking.runOnMainActor {
            try await FeedRun(url: url, client: client, path: path, posts: posts, requests: timelineRequests)
                .burstAndGap()
        }
        server.inject(.status(503), count: 100_000)
        var openings: [Double] = []
        for _ in 0..<7 {
            openings.append(
                try Blocking.runOnMainActor {
                    try await FeedRun(url: url, client: client, path: path, posts: posts, requests: timelineRequests)
                        .openAtCachedPost()
                })
        }
        openings.sort()
        let stalls = try Blocking.runOnMainActor { try await StallSchedules(count: 1_000).run() }
        context.progress.report(
            "feed: burst \(burst.requestsToFirstNewRow) request(s), gap of \(burst.gapItems) filled in "
                + "\(burst.fillRequests) requests; open at a cached post \(openings[openings.count / 2]) ms; "
                + "\(stalls) stalls in 1 000 schedules")
        return [
            Figure(
                name: "feed: 500 new posts, requests until the first new row", unit: .requests,
                value: Double(burst.requestsToFirstNewRow), baseline: nil, baselineValue: nil, target: .valueAtMost(1)),
            Figure(
                name: "feed: 500 new posts, the gap below the new page marked", unit: .yesNo,
                value: burst.gapMarked ? 1 : 0, baseline: nil, baselineValue: nil, target: .holds),
            Figure(
                name: "feed: a gap of \(burst.gapItems) posts, requests to fill it", unit: .requests,
                value: Double(burst.fillRequests), baseline: nil, baselineValue: nil,
                target: .valueAtMost(Double((burst.gapItems + 19) / 20 + 1))),
            Figure(
                name: "feed: opening a relaunched list at a cached post, server failing: first rows",
                unit: .milliseconds,
                value: openings[openings.count / 2], baseline: nil, baselineValue: nil, target: .valueAtMost(50),
                spread: openings[1]...openings[openings.count - 2]),
            Figure(
                name: "feed: lists stalled in 1 000 random schedules of a reader faster than the network",
                unit: .lists, value: Double(stalls), baseline: nil, baselineValue: nil, target: .valueAtMost(0)),
        ]
    }
}

/// A post of the feed.
private struct FeedPost: Codable, Identifiable, CacheIdentifiable, Sendable {
    let id: ID<FeedPost>
    let content: String
}

/// One app's run over the feed's cache file.
@MainActor private struct FeedRun {
    var url: URL
    var client: APIClient
    var path: String
    var posts: FeedPosts
    var requests: @Sendable () -> Int

    struct Burst: Sendable {
        var requestsToFirstNewRow: Int
        var gapMarked: Bool
        var gapItems: Int
        var fillRequests: Int
    }

    private func list(_ cache: SQLiteCache, around: PagedList<FeedPost>.Anchor? = nil) -> PagedList<FeedPost> {
        PagedList(url: url, cache: cache, configuration: HTTPListConfiguration(client: client), around: around)
    }

    /// Reads 200 posts, posts 500, refreshes, then fills the gap page by page.
    func burstAndGap() async throws -> Burst {
        let cache = try SQLiteCache(path: path)
        defer { try? cache.close() }
        let feed = list(cache)
        await feed.load()
        while feed.items.count < 200, !feed.endReached, feed.appendError == nil { await feed.loadNextPage() }
        guard let key = feed.pager?.list.key else { throw FeedFigureError.notLoaded }
        try cache.setNewestFirst(true, for: key)
        posts.post(500)
        let newest = ID<FeedPost>(FeedPosts.id(posts.value))
        var before = requests()
        await feed.refresh()
        let toFirstNewRow = feed.items.first?.id == newest ? requests() - before : .max
        let gap = feed.gaps.first
        before = requests()
        while let gap = feed.gaps.first, requests() - before < 100 { await feed.fillGap(gap) }
        return Burst(
            requestsToFirstNewRow: toFirstNewRow, gapMarked: gap?.afterIndex == 19, gapItems: 500 - 20,
            fillRequests: gap != nil && feed.gaps.isEmpty ? requests() - before : .max)
    }

    /// Opens a list on a new connection to the file at a post 400 rows down, and returns the
    /// milliseconds until its rows, with the post, are shown.
    func openAtCachedPost() async throws -> Double {
        let cache = try SQLiteCache(path: path)
        defer { try? cache.close() }
        let target = ID<FeedPost>(FeedPosts.id(posts.value - 400))
        let clock = ContinuousClock()
        let start = clock.now
        let feed = list(cache, around: .item(target))
        let loading = Task { await feed.load() }
        while feed.openedAt == nil, start.duration(to: clock.now) < .seconds(10) {
            try await Task.sleep(for: .microseconds(200))
        }
        let elapsed = start.duration(to: clock.now).milliseconds
        await loading.value
        guard feed.openedAt == target else { throw FeedFigureError.notOpened }
        return elapsed
    }
}

/// Lists of 14 items in pages of 5, each loaded while rows are revealed in a random order and
/// answers arrive with random latency and random `503`s: a list is stalled when its last row is
/// shown and it neither loads, nor has ended, nor shows an error.
@MainActor private struct StallSchedules {
    var count: Int

    func run() async throws -> Int {
        let server = FixtureServer(configuration: .init(itemCount: 14, pageSize: 5))
        try await server.start()
        defer { Task { await server.stop() } }
        server.injectRandomly(
            [(.delay(.milliseconds(2)), 0.25), (.delay(.microseconds(500)), 0.25), (.status(503), 0.05)], seed: 44)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-stalls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try SQLiteCache(path: directory.appendingPathComponent("cache.sqlite").path)
        defer { try? cache.close() }
        guard let configuration = ServerConfiguration(baseURL: server.url(.page)) else {
            throw LiveListFigureError.noHost
        }
        let client = APIClient(configuration: configuration)
        var random = SplitMix64(seed: 1_000)
        var stalls = 0
        for schedule in 0..<count {
            let list = PagedList<FixtureItem>(
                url: server.url(.page, query: ["schedule": String(schedule)]),
                style: .pageNumber(pageSize: 5, itemsKeyPath: "results"), cache: cache,
                configuration: HTTPListConfiguration(client: client))
            let loading = Task { await list.load() }
            for _ in 0..<Int.random(in: 3...30, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: if !list.items.isEmpty { list.rowAppeared(at: list.items.count - 1) }
                case 1:
                    if !list.items.isEmpty {
                        list.rowAppeared(at: Int.random(in: 0..<list.items.count, using: &random))
                    }
                case 2: await Task.yield()
                default: try await Task.sleep(for: .microseconds(Int.random(in: 0...2_000, using: &random)))
                }
            }
            await loading.value
            var reported = 0
            var quiet = 0
            for _ in 0..<5_000 where quiet < 5 {
                if list.items.count > reported {
                    reported = list.items.count
                    list.rowAppeared(at: reported - 1)
                }
                quiet = list.isLoading ? 0 : quiet + 1
                try await Task.sleep(for: .milliseconds(1))
            }
            if !list.endReached, list.appendError == nil, list.refreshError == nil { stalls += 1 }
        }
        return stalls
    }
}

enum FeedFigureError: Error {
    case notLoaded
    case notOpened
}
