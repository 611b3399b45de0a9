import Foundation
import LocalAPI
import Slippers
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// GraphQL lists paged by an offset or a page number that the query declares, synced by the
/// library from a ``SyncRequest`` that gives the query alone: the list is found under `data`
/// whatever its key, and its total checked.
@Suite(.timeLimit(.minutes(2))) struct NumberedGraphQLListTests {
    static let paginationInput = """
        query($offset: Int, $limit: Int) {
          items(pagination: {offset: $offset, limit: $limit}) { totalCount results { id title } }
        }
        """
    static let numberedEdges = """
        query Articles($page: Int, $pageSize: Int) {
          articles(page: $page, pageSize: $pageSize) { count edges { node { id title } } }
        }
        """

    private func sync(_ fixture: Fixture, query: String, pageSize: Int? = nil) async throws -> SyncPlan {
        var style = SyncRequest.Style()
        style.graphQL = query
        style.pageSize = pageSize
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(.graphql),
            overrides: StyleOverrides(style))
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run()
        return plan
    }

    private func ids(_ fixture: Fixture, _ plan: SyncPlan) throws -> [Int] {
        var ids: [Int] = []
        try fixture.store.forEachItem(in: plan.list.key) { item in
            if case .integer(let id) = item.key { ids.append(id) }
        }
        return ids
    }

    @Test(arguments: [paginationInput, numberedEdges])
    func aListPagedByDeclaredVariablesSyncsExactlyWithNoFlag(query: String) async throws {
        let fixture = try await Fixture(itemCount: 95, pageSize: 10)
        let plan = try await sync(fixture, query: query, pageSize: 20)
        let stored = try #require(try fixture.store.list(plan.list.key))
        #expect(stored.endReached)
        #expect(stored.itemCount == 95)
        #expect(stored.total == 95)
        #expect(try ids(fixture, plan) == Array(1...95))
        // The total ends the list: no request past its last page. A page number whose start the query
        // does not declare has page 0 asked for too, which this server refuses: its pages count from 1.
        let variables = fixture.server.requests.compactMap { $0.jsonBody?["variables"] as? [String: Any] }
        if query == Self.paginationInput {
            #expect(fixture.server.requestCount == 5)
            #expect(variables.map { $0["offset"] as? Int } == [0, 20, 40, 60, 80])
            #expect(variables.allSatisfy { $0["limit"] as? Int == 20 })
        } else {
            #expect(fixture.server.requestCount == 6)
            #expect(variables.map { $0["page"] as? Int } == [1, 0, 2, 3, 4, 5])
            #expect(variables.allSatisfy { $0["pageSize"] as? Int == 20 })
        }
        await fixture.server.stop()
    }

    @Test func aServerThatServesFewerThanAskedIsReadToItsTotal() async throws {
        // The fixture serves at most 100 items a page: the total, not the short page, ends the list.
        let fixture = try await Fixture(itemCount: 230, pageSize: 10)
        let plan = try await sync(fixture, query: Self.paginationInput, pageSize: 150)
        #expect(try ids(fixture, plan) == Array(1...230))
        #expect(fixture.server.requestCount == 3)
        await fixture.server.stop()
    }

    @Test func aListThatEndsShortOfItsTotalIsIncompleteNeverComplete() async throws {
        // A server whose `totalCount` says 50 but that serves 30 items: the total is checked as a body total.
        let fixture = try await Fixture(itemCount: 10, pageSize: 10)
        fixture.server.script("/short") { request in
            let variables = request.jsonBody?["variables"] as? [String: Any]
            let offset = variables?["offset"] as? Int ?? 0
            let limit = variables?["limit"] as? Int ?? 10
            let ids = Array(offset..<min(30, offset + limit)).map { #"{"id":\#($0 + 1)}"# }
            let body = #"{"data":{"items":{"totalCount":50,"results":[\#(ids.joined(separator: ","))]}}}"#
            return FixtureServer.ScriptedResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        var style = SyncRequest.Style()
        style.graphQL = Self.paginationInput
        style.pageSize = 10
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(path: "/short"),
            overrides: StyleOverrides(style))
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run()
        let stored = try #require(try fixture.store.list(plan.list.key))
        #expect(stored.itemCount == 30)
        #expect(stored.total == 50)
        #expect(stored.isIncomplete)
        await fixture.server.stop()
    }

    @Test func aListPagedFromPageZeroIsFoundByAskingForPageZero() async throws {
        let fixture = try await Fixture(itemCount: 10, pageSize: 10)
        // Pages from 0, as many servers count them; `total` beside `results`.
        fixture.server.script("/from-zero") { request in
            let variables = request.jsonBody?["variables"] as? [String: Any]
            let page = variables?["page"] as? Int ?? 0
            let size = variables?["pageSize"] as? Int ?? 10
            let ids = Array(max(0, page * size)..<min(45, (page + 1) * size)).map { #"{"id":\#($0 + 1)}"# }
            let body = #"{"data":{"things":{"total":45,"results":[\#(ids.joined(separator: ","))]}}}"#
            return .json(body)
        }
        for query in [
            "query($page: Int, $pageSize: Int) { things(page: $page, pageSize: $pageSize) { total results { id } } }",
            "query($page: Int = 0, $pageSize: Int) { things(page: $page, pageSize: $pageSize) { total results { id } } }",
        ] {
            fixture.server.resetRequests()
            var style = SyncRequest.Style()
            style.graphQL = query
            style.pageSize = 10
            let plan = try await SyncPlan.make(
                storage: fixture.store, client: fixture.client, url: fixture.server.url(path: "/from-zero"),
                overrides: StyleOverrides(style))
            try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run(
                refresh: true)
            #expect(try ids(fixture, plan) == Array(1...45), "\(query)")
            // Declared `= 0`, no page is asked for twice; else page 1 first, then page 0, which decides.
            let pages = fixture.server.requests.compactMap {
                ($0.jsonBody?["variables"] as? [String: Any])?["page"] as? Int
            }
            #expect(pages == (query.contains("= 0") ? [0, 1, 2, 3, 4] : [1, 0, 1, 2, 3, 4]), "\(query)")
        }
        await fixture.server.stop()
    }

    @Test func theDeclaredVariablesSayHowAQueryPages() {
        typealias Connection = PaginationStyle.GraphQLConnection
        #expect(Connection.declaredVariables(in: Self.paginationInput) == ["offset", "limit"])
        #expect(
            Connection.declaredVariables(
                in: """
                    # $ignored: Int
                    query Q($skip: Int = 0, $first: Int!) { posts(where: {title: "$no: x"}, skip: $skip) { id } }
                    """) == ["skip", "first"])
        #expect(Connection.paging(declaredIn: Self.paginationInput)?.paging == .offset(variable: "offset"))
        #expect(Connection.paging(declaredIn: Self.paginationInput)?.sizeVariable == "limit")
        #expect(Connection.paging(declaredIn: Self.numberedEdges)?.paging == .page(variable: "page", firstPage: 1))
        #expect(Connection.paging(declaredIn: Self.numberedEdges)?.sizeVariable == "pageSize")
        // A default of 0 says where the pages start.
        let fromZero = "query($page: Int! = 0, $pageSize: Int) { a(page: $page, pageSize: $pageSize) { id } }"
        #expect(Connection.paging(declaredIn: fromZero)?.paging == .page(variable: "page", firstPage: 0))
        let fromOne = "query($page: Int = 1, $pageSize: Int = 0) { a(page: $page, pageSize: $pageSize) { id } }"
        #expect(Connection.paging(declaredIn: fromOne)?.paging == .page(variable: "page", firstPage: 1))
        // A Relay connection pages by its cursor, whatever else it declares.
        #expect(Connection.paging(declaredIn: "query($first: Int, $after: String, $offset: Int) { x }") == nil)
        #expect(Connection.paging(declaredIn: "query($offset: Int) { x }") == nil)
    }

    @Test func theListIsTheArrayOfObjectsUnderDataWhateverItsKey() throws {
        typealias Connection = PaginationStyle.GraphQLConnection
        let body = Data(
            #"""
            {"data": {"items": {"totalCount": 1234, "facets": {"tags": [{"name": "a"}]},
              "results": [{"id": 1, "tags": [{"id": 9}]}]}, "tags": ["x"]}}
            """#.utf8)
        let found = Connection.findLists(in: body)
        #expect(found.first?.connectionPath == "items.results")
        #expect(found.first?.items == .nodes)
        #expect(found.first?.totalKeyPath == "data.items.totalCount")
        let edges = Data(#"{"data": {"a": {"count": 3, "edges": [{"node": {"id": 1}}]}}}"#.utf8)
        let list = try #require(Connection.findLists(in: edges).first)
        #expect(list.connectionPath == "a")
        #expect(list.items == .edges)
        #expect(list.itemCount == 1)
        #expect(list.totalKeyPath == "data.a.count")
    }
}
