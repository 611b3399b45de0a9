import Foundation
import LocalAPI
import SlippersKit
import SlippersTestSupport
import Testing

/// Open lists follow the cache: a local write through another list, or a write by another
/// connection to the file, reaches them with no request.
@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListLiveTests {
    func loadedList(_ fixture: Fixture, store: SQLiteCache) async -> PagedList<FixtureItem> {
        let list = PagedList<FixtureItem>(
            url: fixture.server.url(.page),
            style: .pageNumber(pageSize: 10, itemsKeyPath: "results", totalKeyPath: "total"),
            cache: store, configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { list.items.count == 10 && !list.isRefreshing }
        return list
    }

    @Test func aWriteThroughOneListReachesAnotherOpenListWithoutARequest() async throws {
        let fixture = try await Fixture()
        let first = await loadedList(fixture, store: fixture.store)
        let second = await loadedList(fixture, store: fixture.store)
        let type = try #require(first.pager?.list.itemType)
        fixture.server.resetRequests()

        let clock = ContinuousClock()
        let start = clock.now
        try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "Liked"}"#.utf8), url: "http://example.invalid/4"),
            type: type, key: .integer(4))
        await waitUntil { first.items[3].title == "Liked" && second.items[3].title == "Liked" }
        // Seen through GRDB's observation of the cache's own commits, well within the 100 ms asked for;
        // the wide bound keeps a loaded machine from failing the test.
        #expect(start.duration(to: clock.now) < .seconds(5))
        #expect(fixture.server.requestCount == 0)
        await fixture.server.stop()
    }

    @Test func aWriteByAnotherConnectionToTheFileAndAnEvictionReachAnOpenList() async throws {
        let fixture = try await Fixture()
        let list = await loadedList(fixture, store: fixture.store)
        let type = try #require(list.pager?.list.itemType)
        let key = try #require(list.pager?.list.key)
        fixture.server.resetRequests()

        // Another connection, as another process has: seen through PRAGMA data_version.
        let other = try SQLiteCache(path: fixture.directory.path())
        try other.writeLocally(
            WriteRequest(
                kind: .merge, json: Data(#"{"title": "From elsewhere"}"#.utf8), url: "http://example.invalid/2"),
            type: type, key: .integer(2))
        await waitUntil { list.items.count > 1 && list.items[1].title == "From elsewhere" }
        try other.evict(list: key)
        await waitUntil { list.items.isEmpty }
        #expect(fixture.server.requestCount == 0)
        await fixture.server.stop()
    }
}

extension PagedListLiveTests {
    @Test func aListChangesAnItemOfflineShowsItAtOnceAndThePushSendsOnlyWhatChanged() async throws {
        let fixture = try await Fixture()
        let list = await loadedList(fixture, store: fixture.store)
        let other = await loadedList(fixture, store: fixture.store)
        await fixture.server.stop()

        // Offline: the change is in both lists at once, and waits in the outbox.
        let item = list.items[2]
        let write = try #require(try list.update(item) { $0.title = "Liked offline" })
        #expect(write.method == "PATCH")
        #expect(write.url == fixture.server.url(path: "/page/3").absoluteString)
        #expect(write.body == Data(#"{"title":"Liked offline"}"#.utf8))
        await waitUntil { list.items[2].title == "Liked offline" && other.items[2].title == "Liked offline" }
        #expect(try list.update(list.items[2]) { _ in } == nil)
        try list.delete(list.items[5])
        await waitUntil { list.items.count == 9 && other.items.count == 9 }
        #expect(try list.pendingWrites().map(\.method) == ["PATCH", "DELETE"])

        // Back online, the push sends both, once each.
        try await fixture.server.start()
        let report = try await OutboxPush(cache: fixture.store, client: fixture.client).run()
        #expect(report.acknowledged == 2)
        #expect(fixture.server.appliedWrites == 2)
        #expect(try list.pendingWrites().isEmpty)
        #expect(list.items[2].title == "Liked offline")
        await fixture.server.stop()
    }
}
