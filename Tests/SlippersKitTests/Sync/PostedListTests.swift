import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// Lists asked for by POST (GraphQL connections, cursors in a body) planned, synced, resumed and
/// shown as the lists asked for by GET are, over the fixture API and a real cache file.
@Suite(.timeLimit(.minutes(2))) struct PostedListTests {
    static let posts = """
        query($first: Int!, $after: String) {
          posts(first: $first, after: $after) { edges { node { id title } } pageInfo { hasNextPage endCursor } }
        }
        """
    static let issues = """
        query($first: Int!, $after: String) {
          viewer { repository(name: "slippers") { issues(first: $first, after: $after) {
            nodes { id title } pageInfo { hasNextPage endCursor } } } }
        }
        """

    private func sync(_ fixture: Fixture, _ style: PaginationStyle, maxPages: Int? = nil) async throws -> SyncPlan {
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(.graphql),
            overrides: StyleOverrides(style: style))
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run(
            maxPages: maxPages)
        return plan
    }

    @Test func aConnectionFoundInTheFirstResponseCostsNoExtraRequestAndResumesFromItsCursor() async throws {
        let fixture = try await Fixture(itemCount: 45, pageSize: 10)
        let style = PaginationStyle.graphQL(query: Self.issues, connectionPath: "", pageSize: 10)
        let first = try await sync(fixture, style, maxPages: 2)
        #expect(first.list.key.contains("#graphql:viewer.repository.issues:"))
        #expect(fixture.server.requestCount == 2)

        // Another run finds the stored list without a request, and continues after its cursor.
        fixture.server.resetRequests()
        let again = try await sync(fixture, style)
        #expect(again.list.key == first.list.key)
        #expect(again.stored?.currentPageCount == 2)
        #expect(fixture.server.requestCount == 3)
        let resumedAfter = fixture.server.requests.first?.jsonBody?["variables"] as? [String: Any]
        #expect(resumedAfter?["after"] as? String == FixtureCursor.after(position: 19))
        var ids: [Int] = []
        try fixture.store.forEachItem(in: first.list.key) { item in
            if case .integer(let id) = item.key { ids.append(id) }
        }
        #expect(ids == Array(1...45))
        await fixture.server.stop()
    }

    @Test func twoQueriesOfOneURLAreTwoLists() async throws {
        let fixture = try await Fixture(itemCount: 25, pageSize: 10)
        let posts = try await sync(fixture, .graphQL(query: Self.posts, connectionPath: "posts", pageSize: 10))
        let issues = try await sync(fixture, .graphQL(query: Self.issues, connectionPath: "", pageSize: 10))
        #expect(posts.list.key != issues.list.key)
        #expect(try fixture.store.lists().count == 2)
        #expect(try fixture.store.list(posts.list.key)?.itemCount == 25)
        #expect(try fixture.store.list(issues.list.key)?.itemCount == 25)
        #expect(posts.list.itemType.hasPrefix("posts@"))
        #expect(issues.list.itemType.hasPrefix("issues@"))
        await fixture.server.stop()
    }

    @Test func partialDataWithErrorsIsNeverSavedAndEarlierPagesSurvive() async throws {
        let fixture = try await Fixture(itemCount: 45, pageSize: 10)
        let style = PaginationStyle.graphQL(
            query: Self.posts, variables: #"{"failAt": 20}"#, connectionPath: "posts", pageSize: 10)
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(.graphql),
            overrides: StyleOverrides(style: style))
        let sync = ListSync(storage: fixture.store, source: plan.source, list: plan.list)
        let error = await #expect(throws: NetworkError.self) { try await sync.run() }
        #expect(error?.kind == .graphQL(message: "Resolver failed at 20", path: "posts", errorCount: 2))
        let stored = try #require(try fixture.store.list(plan.list.key))
        #expect(stored.currentPageCount == 2)
        #expect(stored.itemCount == 20)
        await fixture.server.stop()
    }

    @Test func aBodyCursorListIsKeyedByItsBodyAndResumed() async throws {
        let fixture = try await Fixture(itemCount: 35, pageSize: 10)
        let style = PaginationStyle.bodyCursor(
            body: #"{"sorts": [{"timestamp": "created_time", "direction": "ascending"}]}"#,
            cursorPath: "start_cursor", nextCursor: .response(keyPath: "next_cursor"), pageSizePath: "page_size",
            pageSize: 10)
        let url = fixture.server.url(.search)
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: url, overrides: StyleOverrides(style: style))
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run(
            maxPages: 1)
        let again = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: url, overrides: StyleOverrides(style: style))
        let progress = try await ListSync(
            storage: fixture.store, source: again.source, list: again.list
        )
        .run()
        #expect(again.list.key == plan.list.key)
        #expect(progress.itemsFetched == 25)
        #expect(fixture.server.requestCount == 4)
        #expect(fixture.server.requests[1].jsonBody?["start_cursor"] as? String == "c-10")
        await fixture.server.stop()
    }

    @MainActor @Test func aPagedListOfAConnectionScrollsToItsEndAndShowsItOffline() async throws {
        let fixture = try await Fixture(itemCount: 25, pageSize: 10)
        let url = fixture.server.url(.graphql)
        let style = PaginationStyle.graphQL(query: Self.posts, connectionPath: "posts", pageSize: 10)
        let configuration = HTTPListConfiguration(client: fixture.client)
        let list = PagedList<FixtureItem>(url: url, style: style, cache: fixture.store, configuration: configuration)
        await list.load()
        await waitUntil { list.items.count == 10 && !list.isRefreshing }
        list.rowAppeared(list.items[9])
        await waitUntil { list.items.count == 20 && !list.isLoading }
        list.rowAppeared(list.items[19])
        await waitUntil { list.endReached }
        #expect(list.items.map { $0.id.intValue ?? -1 } == Array(1...25))
        #expect(fixture.server.requests.allSatisfy { $0.method == "POST" })
        await fixture.server.stop()

        let offline = PagedList<FixtureItem>(url: url, style: style, cache: fixture.store, configuration: configuration)
        await offline.load()
        await waitUntil { !offline.isRefreshing }
        #expect(offline.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(offline.provenance == .cache)
    }
}

/// The fixture's Relay cursors, as graphql-relay makes them.
enum FixtureCursor {
    static func after(position: Int) -> String {
        Data("arrayconnection:\(position)".utf8).base64EncodedString()
    }
}
