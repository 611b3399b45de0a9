import Foundation
import LocalAPI
import SlippersKit
import SlippersTestSupport
import Testing

/// Writes through a list: shown when the call returns, counted where a view can watch them, and
/// sent by the list's own client and headers.
@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListWritesTests {
    func loadedList(_ fixture: Fixture) async -> PagedList<FixtureItem> {
        let list = PagedList<FixtureItem>(
            url: fixture.server.url(.page),
            style: .pageNumber(pageSize: 10, itemsKeyPath: "results", totalKeyPath: "total"),
            cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client, headers: ["Authorization": "Bearer t"]))
        await list.load()
        await waitUntil { list.items.count == 10 && !list.isRefreshing }
        return list
    }

    @Test func aChangeShowsWhenTheCallReturnsAndIsCountedUntilPushed() async throws {
        let fixture = try await Fixture()
        let list = await loadedList(fixture)
        #expect(list.pendingWriteCount == 0)

        try list.update(list.items[2]) { $0.title = "Liked" }
        #expect(list.items[2].title == "Liked")
        let gone = list.items[5]
        try list.delete(gone)
        #expect(!list.items.contains { $0.id == gone.id })
        #expect(list.pendingWriteCount == 2)
        #expect(try list.version(of: list.items[2]) == nil)

        fixture.server.resetRequests()
        let report = try await list.push()
        #expect(report.acknowledged == 2)
        #expect(list.pendingWriteCount == 0)
        #expect(list.failedWriteCount == 0)
        #expect(fixture.server.requests.allSatisfy { $0.authorization == "Bearer t" })
        #expect(fixture.server.appliedWrites == 2)
        await fixture.server.stop()
    }

    @Test func aRefusedWriteIsCountedAsFailed() async throws {
        let fixture = try await Fixture()
        let list = await loadedList(fixture)
        try list.update(list.items[1]) { $0.title = String(repeating: "x", count: 300) }
        _ = try await list.push()
        #expect(list.failedWriteCount == 1)
        #expect(list.pendingWriteCount == 0)
        let failed = try #require(try list.pendingWrites().first)
        try list.discard(failed)
        #expect(list.failedWriteCount == 0)
        await fixture.server.stop()
    }
}
