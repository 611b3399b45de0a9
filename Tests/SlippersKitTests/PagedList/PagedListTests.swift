import Foundation
import LocalAPI
import Observation
import SlippersKit
import SlippersTestSupport
import Testing

/// The observable list over real HTTP (the fixture API on 127.0.0.1) and a real cache file,
/// observed as SwiftUI observes it: with `withObservationTracking`.
@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListTests {
    @Test func aListFromAURLDetectsItsStyleFetchesPageOneOnceAndGrowsAsRowsAppear() async throws {
        let fixture = try await Fixture()
        let list = PagedList<FixtureItem>(
            url: fixture.server.url(.page), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        let changes = ChangeCounter()
        changes.observe { _ = list.items }

        await list.load()
        await waitUntil { list.items.count == 10 && !list.isRefreshing }
        #expect(list.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(list.pageProvenances == [.network])
        #expect(list.refreshError == nil)
        #expect(fixture.firstPageRequests() == 1)

        // A row far from the end asks for nothing; the last rows ask for the next page, once.
        list.rowAppeared(list.items[0])
        #expect(fixture.server.requestCount == 1)
        list.rowAppeared(list.items[7])
        list.rowAppeared(list.items[8])
        await waitUntil { list.items.count == 20 && !list.isLoading }
        #expect(fixture.server.requestCount == 2)
        list.rowAppeared(list.items[19])
        await waitUntil { list.endReached }
        #expect(list.items.map { $0.id.intValue ?? -1 } == Array(1...25))
        #expect(list.pageProvenances == [.network, .network, .network])
        #expect(changes.count > 0)
        await fixture.server.stop()
    }

    @Test func offlineTheListIsRebuiltFromTheStyleStoredWithItsList() async throws {
        let fixture = try await Fixture()
        let online = PagedList<FixtureItem>(
            url: fixture.server.url(.page), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await online.load()
        await waitUntil { online.items.count == 10 && !online.isRefreshing }
        let url = fixture.server.url(.page)
        await fixture.server.stop()

        // A new launch, the server gone: no detection is possible, the cache is enough.
        let offline = PagedList<FixtureItem>(
            url: url, cache: fixture.store, configuration: HTTPListConfiguration(client: fixture.client))
        await offline.load()
        await waitUntil { !offline.isRefreshing }
        #expect(offline.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(offline.pageProvenances == [.cache])
        #expect(offline.provenance == .cache)
        #expect(offline.refreshError != nil)
    }

    @Test func aFailedPageIsNotAskedForAgainByRowsButByRetry() async throws {
        let fixture = try await Fixture()
        // A backoff longer than the test, however slowly a loaded machine runs it.
        var configuration = HTTPListConfiguration(client: fixture.client)
        configuration.pager.backoff = OfflineBackoff(initial: 600, maximum: 600)
        let list = PagedList<FixtureItem>(
            url: fixture.server.url(.page), style: .pageNumber(pageSize: 10, itemsKeyPath: "results"),
            cache: fixture.store, configuration: configuration)
        await list.load()
        await waitUntil { list.items.count == 10 && !list.isRefreshing }

        fixture.server.inject(.status(503))
        list.rowAppeared(at: 9)
        await waitUntil { list.appendError != nil }
        let requests = fixture.server.requestCount
        list.rowAppeared(at: 9)
        list.rowAppeared(at: 8)
        await list.loadNextPage()  // within the backoff: no request either
        #expect(fixture.server.requestCount == requests)
        #expect(list.items.count == 10)

        await list.retry()
        await waitUntil { list.items.count == 20 && list.appendError == nil }
        #expect(fixture.server.requestCount == requests + 1)
        await fixture.server.stop()
    }

    @Test func refreshReturnsWhenTheFirstPageIsRevalidatedAndKeepsItsErrorAside() async throws {
        let fixture = try await Fixture()
        let list = PagedList<FixtureItem>(
            url: fixture.server.url(.page), style: .pageNumber(pageSize: 10, itemsKeyPath: "results"),
            cache: fixture.store, configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { list.items.count == 10 && !list.isRefreshing }

        fixture.server.insertAtTop(count: 2)
        await list.refresh()
        #expect(!list.isRefreshing)
        #expect(Set(list.items.prefix(2).map { $0.id.intValue ?? -1 }) == [26, 27])

        fixture.server.inject(.status(500))
        await list.refresh()
        #expect(list.refreshError != nil)
        #expect(Set(list.items.prefix(2).map { $0.id.intValue ?? -1 }) == [26, 27])
        await fixture.server.stop()
    }

    @Test func aStubbedListPagesWithNoServerInAnInMemoryCache() async throws {
        let client = APIClient(configuration: ServerConfiguration(host: "api.example.com", shouldStub: true))
        let stub = PageStub.pages([
            #"{"results": [{"id": 1, "title": "One"}, {"id": 2, "title": "Two"}]}"#,
            #"{"results": [{"id": 3, "title": "Three"}]}"#,
        ])
        let list = PagedList<Note>(
            url: "https://api.example.com/notes", style: .pageNumber(pageSize: 2, itemsKeyPath: "results"),
            cache: try SQLiteCache.inMemory(), configuration: HTTPListConfiguration(client: client, stub: stub))
        await list.load()
        await waitUntil { list.items.count == 2 && !list.isRefreshing }
        list.rowAppeared(list.items[1])
        await waitUntil { list.endReached }
        #expect(list.items.map(\.title) == ["One", "Two", "Three"])
    }

    @Test func anAppModelHoldingAListIsObservedThroughIt() async throws {
        let fixture = try await Fixture()
        let model = AppModel(
            posts: PagedList(
                url: fixture.server.url(.page), cache: fixture.store,
                configuration: HTTPListConfiguration(client: fixture.client)))
        let changes = ChangeCounter()
        changes.observe { _ = model.posts.items.count }
        await model.posts.load()
        await waitUntil { model.posts.items.count == 10 }
        // The counter counts in a task of its own, after the change: give it the time a loaded machine takes.
        await waitUntil(timeout: .seconds(30)) { changes.count > 0 }
        #expect(changes.count > 0)
        await fixture.server.stop()
    }

    @Test func aTextThatIsNotAURLIsAnErrorOnLoadNotACrash() async throws {
        let list = PagedList<FixtureItem>(url: "not a url", cache: try SQLiteCache.inMemory())
        await list.load()
        #expect(list.refreshError != nil)
        #expect(list.items.isEmpty)
        #expect(!list.isLoading)
    }

    @Test func aMetaRefresherRefreshesLists() async throws {
        let fixture = try await Fixture()
        let list = PagedList<FixtureItem>(
            url: fixture.server.url(.page), style: .pageNumber(pageSize: 10, itemsKeyPath: "results"),
            cache: fixture.store, configuration: HTTPListConfiguration(client: fixture.client))
        let group = MetaRefresher()
        group.add(list)
        try await group.refresh()
        // The list shows what the refresh stored once the cache's observation tells it.
        await waitUntil { list.items.count == 10 }
        #expect(list.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        await fixture.server.stop()
    }
}

/// A note of a stubbed API.
struct Note: Codable, Sendable, Identifiable, CacheIdentifiable {
    let id: ID<Note>
    let title: String
}

/// An app's own observable model, holding a list as one of its properties.
@MainActor @Observable final class AppModel {
    var posts: PagedList<FixtureItem>

    init(posts: PagedList<FixtureItem>) {
        self.posts = posts
    }
}
