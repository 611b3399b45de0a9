import Foundation
import LocalAPI
import SlippersKit
import SlippersTestSupport
import Testing

/// Items made offline through a list: shown at once in every open list, kept through a refresh,
/// created on the fixture server once, then filed under the server's id.
@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListInsertTests {
    func loadedList(_ fixture: Fixture) async -> PagedList<FixtureItem> {
        let list = PagedList<FixtureItem>(
            url: fixture.server.url(.page),
            style: .pageNumber(pageSize: 10, itemsKeyPath: "results", totalKeyPath: "total"),
            cache: fixture.store, configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { list.items.count == 10 && !list.isRefreshing }
        return list
    }

    private func made(_ id: Int, _ title: String, like template: FixtureItem) -> FixtureItem {
        var item = template
        item.id = ID(id)
        item.title = title
        return item
    }

    @Test func anItemMadeOfflineShowsAtOnceSurvivesARefreshAndIsCreatedOnceUnderTheServersID() async throws {
        let fixture = try await Fixture()
        let list = await loadedList(fixture)
        let other = await loadedList(fixture)
        let first = list.items[0]
        await fixture.server.stop()

        // Offline: one item at the top, one at the end, and a change of the first before it is sent.
        let insert = try list.insert(made(-1, "Written offline", like: first))
        #expect(insert.method == "POST")
        #expect(insert.url == fixture.server.url(path: "/page").absoluteString)
        try list.insert(made(-2, "Also offline", like: first), at: .last)
        await waitUntil { list.items.count == 12 && other.items.count == 12 }
        #expect(other.items.first?.id == ID(-1))
        #expect(other.items.last?.id == ID(-2))
        try list.update(list.items[0]) { $0.title = "Edited offline" }
        await waitUntil { other.items.first?.title == "Edited offline" }
        #expect(try list.pendingWrites().map(\.method) == ["POST", "POST", "PATCH"])

        // Online again: a refresh of the first page keeps the items the server does not have yet.
        try await fixture.server.start()
        fixture.server.resetRequests()
        await list.refresh()
        await waitUntil { !list.isRefreshing }
        #expect(list.items.first?.id == ID(-1))
        #expect(list.items.last?.id == ID(-2))

        // The push creates each once; the change goes to the id the server gave.
        fixture.server.resetRequests()
        let report = try await OutboxPush(cache: fixture.store, client: fixture.client).run()
        #expect(report.acknowledged == 3)
        #expect(report.remaining == 0)
        let requests = fixture.server.requests
        #expect(requests.map(\.method) == ["POST", "POST", "GET", "PATCH"])
        #expect(requests.map(\.path) == ["/page", "/page", "/page/26", "/page/26"])
        // The provisional ids are not posted.
        #expect(
            requests.prefix(2).allSatisfy {
                (try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any])?["id"] == nil
            })
        #expect(fixture.server.appliedWrites == 3)
        await waitUntil { other.items.first?.id == ID(26) && other.items.last?.id == ID(27) }
        #expect(other.items.first?.title == "Edited offline")
        #expect(!other.items.contains { ($0.id.intValue ?? 0) < 0 })

        // The server's pages now place them: the newest first, each once.
        await list.refresh()
        await waitUntil { !list.isRefreshing && list.items.first?.id == ID(27) }
        let ids = list.items.map { $0.id.intValue ?? -1 }
        #expect(Array(ids.prefix(3)) == [27, 26, 1])
        #expect(Set(ids).count == ids.count)
        await fixture.server.stop()
    }
}
