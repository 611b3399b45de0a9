import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Testing

/// Pages asked for with the item before them (`PageRequest.overlapsPreviousPage`).
@Suite struct HTTPPageSourceOverlapTests {
    private func scripted(_ style: PaginationStyle, _ responses: StubResponse...) -> (HTTPPageSource, ScriptedTransport)
    {
        let transport = ScriptedTransport(responses.map { .success($0) })
        let source = HTTPPageSource(
            client: APIClient(
                configuration: ServerConfiguration(host: "api.test"),
                options: APIClient.Options(transport: transport, retryPolicy: .none)),
            url: URL(string: "https://api.test/items")!, style: style)
        return (source, transport)
    }

    @Test func anOffsetPageIsAskedForFromTheItemBeforeItWithOneMore() async throws {
        try await withFixtureServer(.init(itemCount: 10, pageSize: 4)) { server in
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(.offset), style: .offset(limit: 4))
            let page = try #require(
                try await source.fetch(PageRequest(token: PageToken(4), overlapsPreviousPage: true)).page)
            #expect(server.requests.map { [$0.query["offset"], $0.query["limit"]] } == [["3", "5"]])
            #expect(integerIDs(page.items) == [5, 6, 7, 8])
            #expect(page.itemBefore.map { integerIDs([$0]) } == [4])
            // The page is the plain request's: its token, the next token, no validators of another URL.
            #expect(page.token == PageToken(4))
            #expect(page.nextToken == PageToken(8))
            #expect(page.validators == PageValidators())

            let last = try #require(
                try await source.fetch(PageRequest(token: PageToken(8), overlapsPreviousPage: true)).page)
            #expect(integerIDs(last.items) == [9, 10])
            #expect(last.isLast)
        }
    }

    @Test func aNextURLThatAdvancesAnOffsetIsAskedForFromTheItemBeforeItsPage() async throws {
        try await withFixtureServer(.init(itemCount: 10, pageSize: 4)) { server in
            var style = PaginationStyle.nextURL(keyPath: "next", itemsKeyPath: "results", totalKeyPath: "count")
            let advancing = PaginationStyle.Advancing(
                parameter: "offset", first: 0, step: 4,
                template: server.url(.next, query: ["limit": "4", "offset": "4"]).absoluteString)
            style.advancing = advancing
            let source = HTTPPageSource(client: client(for: server), url: server.url(.next), style: style)
            let token = try #require(source.token(forPageAt: 1))
            let page = try #require(try await source.fetch(PageRequest(token: token, overlapsPreviousPage: true)).page)
            #expect(server.requests.map { [$0.query["offset"], $0.query["limit"]] } == [["3", "5"]])
            #expect(integerIDs(page.items) == [5, 6, 7, 8])
            #expect(page.itemBefore.map { integerIDs([$0]) } == [4])
            // The tokens are the plain requests' URLs: the page's own, and the next page's as named by index.
            #expect(page.token == token)
            #expect(page.nextToken == source.token(forPageAt: 2))
        }
    }

    @Test func aNextURLWithoutAPageSizeOrByPageNumberIsNotWidened() {
        let byOffset = PaginationStyle.Advancing(
            parameter: "offset", first: 0, step: 50, template: "https://api.test/items?offset=50")
        #expect(byOffset.overlappingURL(forPageAt: 2) == nil)
        let byNumber = PaginationStyle.Advancing(
            parameter: "page", first: 1, step: 1, template: "https://api.test/items?page=2&size=1")
        #expect(byNumber.overlappingURL(forPageAt: 2) == nil)
        let sized = PaginationStyle.Advancing(
            parameter: "offset", first: 0, step: 50, template: "https://api.test/items?limit=50&offset=50&q=50")
        #expect(sized.overlappingURL(forPageAt: 2)?.absoluteString == "https://api.test/items?limit=51&offset=99&q=50")
    }

    @Test func aServerThatCapsThePageSizeIsAskedAgainPlainly() async throws {
        var configuration = FixtureServer.Configuration(itemCount: 10, pageSize: 4)
        configuration.maxLimit = 4
        try await withFixtureServer(configuration) { server in
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(.offset), style: .offset(limit: 4))
            let page = try #require(
                try await source.fetch(PageRequest(token: PageToken(4), overlapsPreviousPage: true)).page)
            #expect(server.requests.map { [$0.query["offset"], $0.query["limit"]] } == [["3", "5"], ["4", "4"]])
            #expect(integerIDs(page.items) == [5, 6, 7, 8])
            #expect(page.itemBefore == nil)
            #expect(page.nextToken == PageToken(8))
        }
    }

    @Test(arguments: [400, 422])
    func aServerThatRefusesALargerPageIsAskedPlainlyFromThen(status: Int) async throws {
        var configuration = FixtureServer.Configuration(itemCount: 10, pageSize: 4)
        configuration.maxLimit = 4
        configuration.refusedLimitStatus = status
        try await withFixtureServer(configuration) { server in
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(.offset), style: .offset(limit: 4))
            #expect(source.asksItemBefore(at: PageToken(4)))
            #expect(source.learntStyle == nil)
            let page = try #require(
                try await source.fetch(PageRequest(token: PageToken(4), overlapsPreviousPage: true)).page)
            #expect(server.requests.map { [$0.query["offset"], $0.query["limit"]] } == [["3", "5"], ["4", "4"]])
            #expect(integerIDs(page.items) == [5, 6, 7, 8])
            #expect(page.itemBefore == nil)
            #expect(page.nextToken == PageToken(8))

            // The source, and any copy of it, asks no wider page again; the style it records says why.
            #expect(!source.asksItemBefore(at: PageToken(8)))
            let learnt = try #require(PaginationStyle(storedText: source.learntStyle))
            #expect(learnt.maxPageSize == 4)
            #expect(learnt.asGiven == source.style)
            let next = HTTPPageSource(client: client(for: server), url: server.url(.offset), style: learnt)
            #expect(!next.asksItemBefore(at: PageToken(8)))
            #expect(next.learntStyle == nil)
        }
    }

    @Test func aServerThatCutsALargerPageIsRememberedToCapIt() async throws {
        var configuration = FixtureServer.Configuration(itemCount: 10, pageSize: 4)
        configuration.maxLimit = 4
        try await withFixtureServer(configuration) { server in
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(.offset), style: .offset(limit: 4))
            _ = try await source.fetch(PageRequest(token: PageToken(4), overlapsPreviousPage: true))
            #expect(PaginationStyle(storedText: source.learntStyle)?.maxPageSize == 4)
            server.resetRequests()
            _ = try await source.fetch(PageRequest(token: PageToken(8), overlapsPreviousPage: true))
            #expect(server.requests.map { $0.query["limit"] } == ["4"])
        }
    }

    @Test func aRangePageAsksForARangeOneItemWider() async throws {
        let (source, transport) = scripted(
            .range(pageSize: 2),
            .json(#"[{"id": 2}, {"id": 3}, {"id": 4}]"#, statusCode: 206, headers: ["Content-Range": "items 1-3/9"]))
        let page = try #require(
            try await source.fetch(PageRequest(token: PageToken(2), overlapsPreviousPage: true)).page)
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "Range") } == ["items=1-3"])
        #expect(integerIDs(page.items) == [3, 4])
        #expect(page.itemBefore.map { integerIDs([$0]) } == [2])
        #expect(page.nextToken == PageToken(4))
    }

    @Test func stylesThatCannotAskForTheItemBeforeAskPlainly() async throws {
        let (numbered, numberedTransport) = scripted(
            .pageNumber(pageSize: 2, itemsKeyPath: "results", totalKeyPath: "total"),
            .json(#"{"results": [{"id": 3}, {"id": 4}], "total": 9}"#))
        let page = try #require(
            try await numbered.fetch(PageRequest(token: PageToken(2), overlapsPreviousPage: true)).page)
        #expect(numberedTransport.requests.map { $0.url?.query } == ["page=2&per_page=2"])
        #expect(page.itemBefore == nil)

        // Without a page size the walk does not set the limit, so it cannot ask for one more.
        let (unsized, unsizedTransport) = scripted(
            .offset(), .json(#"{"results": [{"id": 3}, {"id": 4}], "total": 9}"#))
        _ = try await unsized.fetch(PageRequest(token: PageToken(2), overlapsPreviousPage: true))
        #expect(unsizedTransport.requests.map { $0.url?.query } == ["offset=2"])
    }
}
