import Foundation
import LocalAPI
import Observation
import SlippersKit
import SlippersTestSupport
import Testing

/// Scrolling a list row by row while the network fails: the cached pages keep coming.
@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListOfflineTests {
    /// Shows each row in turn, as a scrolling view does, until no new row comes.
    private func scrollToTheEnd(_ list: PagedList<FixtureItem>) async {
        var index = 0
        var idle = 0
        while idle < 50 {
            if index < list.items.count {
                list.rowAppeared(at: index)
                index += 1
                idle = 0
            } else {
                idle += 1
            }
            // The row's load runs in a task of its own: let it run before the next row shows.
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// A cache of 10 pages of 10 that went stale (no validators, max-age 1 s, as Datasette
    /// answers), and a server that fails from then on.
    private func staleCacheOffline() async throws -> (FixtureServer, TemporaryDirectory, SQLiteCache, APIClient) {
        let server = FixtureServer(
            configuration: {
                var configuration = FixtureServer.Configuration(itemCount: 100, pageSize: 10)
                configuration.validators = .none
                configuration.responseHeaders = ["Cache-Control": "max-age=1"]
                return configuration
            }())
        try await server.start()
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        let client = try #require(
            ServerConfiguration(baseURL: server.baseURL).map {
                APIClient(configuration: $0, options: APIClient.Options(retryPolicy: .none))
            })
        let online = PagedList<FixtureItem>(
            url: server.url(.page), style: style, cache: store, configuration: HTTPListConfiguration(client: client))
        await online.load()
        await waitUntil { online.items.count == 10 && !online.isRefreshing }
        await scrollToTheEnd(online)
        #expect(online.items.count == 100)
        #expect(online.endReached)

        // Every page goes stale; the network fails from now on.
        try await Task.sleep(for: .milliseconds(1_100))
        server.inject(.status(503), count: 100_000)
        server.resetRequests()
        return (server, directory, store, client)
    }

    private let style = PaginationStyle.pageNumber(pageSize: 10, itemsKeyPath: "results")

    /// A list whose backoff after a failure (10 minutes) outlasts any scroll of these tests.
    private func offlineConfiguration(_ client: APIClient) -> HTTPListConfiguration {
        HTTPListConfiguration(client: client, pager: PagerConfiguration(backoff: OfflineBackoff(initial: 600)))
    }

    @Test func offlineALoadReturnsOnceTheCachedRowsAreShownAndTheNetworkFailedOnce() async throws {
        let (server, directory, store, _) = try await staleCacheOffline()
        _ = directory
        // A client that would try five times: with the cached rows shown, the first failure is told at once.
        let patient = try #require(
            ServerConfiguration(baseURL: server.baseURL).map {
                APIClient(
                    configuration: $0,
                    options: APIClient.Options(
                        retryPolicy: RetryPolicy(
                            maxAttempts: 5, baseDelay: .milliseconds(500), maxDelay: .seconds(4), jitter: 0)))
            })
        let list = PagedList<FixtureItem>(
            url: server.url(.page), style: style, cache: store, configuration: offlineConfiguration(patient))
        await list.load()
        #expect(list.items.count >= 10)
        #expect(list.refreshError != nil)
        #expect(server.requestCount == 1)
        await server.stop()
    }

    @Test func rowsRevealEveryStaleCachedPageWhileTheNetworkFails() async throws {
        let (server, directory, store, client) = try await staleCacheOffline()
        defer { _ = directory }
        // A new launch, row by row.
        let offline = PagedList<FixtureItem>(
            url: server.url(.page), style: style, cache: store, configuration: offlineConfiguration(client))
        await offline.load()
        await waitUntil { !offline.isRefreshing }
        #expect(offline.refreshError != nil)
        await scrollToTheEnd(offline)
        #expect(offline.items.map { $0.id.intValue ?? -1 } == Array(1...100))
        #expect(offline.pageProvenances.count == 10)
        #expect(offline.pageProvenances.allSatisfy { $0 == .cache }, "\(offline.pageProvenances)")
        // The first failure starts a backoff that outlasts the scroll, however slow: no request after it.
        #expect(server.requestCount == 1, "\(server.requests.map(\.query))")
        await server.stop()
    }

    @Test func thePagersDisplayedRowsRevealThemToo() async throws {
        let (server, directory, store, client) = try await staleCacheOffline()
        defer { _ = directory }
        let pager = try Pager<FixtureItem>(
            url: server.url(.page), style: style, cache: store, configuration: offlineConfiguration(client))
        await pager.start()
        var row = 0
        while row < (await pager.state).items.count {
            await pager.loadNextPageIfNeeded(displayedRow: row)
            row += 1
        }
        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...100))
        #expect(state.refresh.error != nil)
        #expect(server.requestCount == 1, "\(server.requests.map(\.query))")
        await server.stop()
    }
}
