import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Testing

/// The styles of well-known APIs, each detected from its first page and walked to the end over real HTTP.
@Suite struct RealAPIStylesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var route: FixtureServer.Route
        var kind: PaginationStyle.Kind
        var itemsKeyPath: String
        var endSignal: PaginationStyle.EndSignal?
        var testDescription: String { route.rawValue }
    }

    static let cases: [Case] = [
        Case(
            route: .stripe, kind: .afterLastItem(parameter: "starting_after"), itemsKeyPath: "data",
            endSignal: .hasMore(keyPath: "has_more")),
        Case(
            route: .slack, kind: .cursor(parameter: "cursor", keyPath: "response_metadata.next_cursor"),
            itemsKeyPath: "members"),
        Case(route: .jsonapi, kind: .nextURL(keyPath: "links.next"), itemsKeyPath: "data"),
        Case(route: .odata, kind: .nextURL(keyPath: #"@odata\.nextLink"#), itemsKeyPath: "value"),
        Case(
            route: .spring, kind: .pageNumber(parameter: "page", firstPage: 0), itemsKeyPath: "content",
            endSignal: .isLast(keyPath: "last")),
    ]

    @Test(arguments: cases, [95, 100])
    func eachStyleIsDetectedAndPagedToTheEndWithoutARequestPastIt(_ testCase: Case, itemCount: Int) async throws {
        let configuration = FixtureServer.Configuration(itemCount: itemCount, pageSize: 20)
        try await withFixtureServer(configuration) { server async throws in
            let (source, first) = try await detected(
                client: client(for: server), url: server.url(testCase.route))
            #expect(source.style.kind == testCase.kind)
            #expect(source.style.itemsKeyPath == testCase.itemsKeyPath)
            if let endSignal = testCase.endSignal { #expect(source.style.endSignal == endSignal) }
            let (items, _) = try await walk(source, from: first, maxPages: 50)
            #expect(integerIDs(items) == Array(1...itemCount))
            #expect(server.requestCount == (itemCount + 19) / 20, "one request a page, none past the end")
        }
    }

    @Test func aCountedODataListCarriesItsTotal() async throws {
        try await withFixtureServer(.init(itemCount: 45, pageSize: 20)) { server async throws in
            let (source, first) = try await detected(
                client: client(for: server), url: server.url(.odata, query: ["$count": "true"]))
            #expect(source.style.totalKeyPath == #"@odata\.count"#)
            #expect(first.total == 45)
        }
    }

    @Test func detectionOfAListThatSaysHowItPagesFetchesOnlyTheFirstPage() async throws {
        try await withFixtureServer(.init(itemCount: 95, pageSize: 20)) { server async throws in
            let detection = try await HTTPPageSource.detect(client: client(for: server), url: server.url(.spring))
                .detection
            #expect(detection.style.kind == .pageNumber(parameter: "page", firstPage: 0))
            #expect(detection.style.pageSizeParameter == "size")
            #expect(detection.style.pageSize == 20)
            #expect(detection.style.totalKeyPath == "totalElements")
            #expect(detection.confidence == .high)
            #expect(detection.itemCount == 20)
            #expect(server.requestCount == 1)
        }
    }
}

/// A page-number API whose body gives its total and page count is paged with one request a page, none after.
@Suite struct NoRequestPastTheEndTests {
    /// FastAPI-pagination's `Page`: `?page=N&size=M`, answering `items`, `total`, `page`, `size`, `pages`.
    private func scriptFastAPI(_ server: FixtureServer, itemCount: Int) {
        server.script("/fastapi") { request in
            let page = request.query["page"].flatMap { Int($0) } ?? 1
            let size = request.query["size"].flatMap { Int($0) } ?? 50
            let start = (page - 1) * size
            let ids = start < itemCount ? Array(start + 1...min(start + size, itemCount)) : []
            let items = ids.map { #"{"id":\#($0),"title":"item \#($0)"}"# }.joined(separator: ",")
            let pages = (itemCount + size - 1) / size
            return .json(
                #"{"items":[\#(items)],"total":\#(itemCount),"page":\#(page),"size":\#(size),"pages":\#(pages)}"#)
        }
    }

    @Test(arguments: [100, 101, 149, 150])
    func aPageCountInTheBodyEndsTheList(itemCount: Int) async throws {
        try await withFixtureServer { server async throws in
            scriptFastAPI(server, itemCount: itemCount)
            let url = server.url(path: "/fastapi")
            let (source, first) = try await detected(client: client(for: server), url: url)
            #expect(source.style.kind == .pageNumber(parameter: "page", firstPage: 1))
            #expect(source.style.itemsKeyPath == "items")
            #expect(source.style.pageSizeParameter == "size")
            #expect(source.style.endSignal == .pageCount(keyPath: "pages"))
            #expect(first.total == itemCount)
            var items = first.items
            var next = first.nextToken
            while let token = next {
                let page = try #require(try await source.fetch(PageRequest(token: token)).page)
                items += page.items
                next = page.nextToken
            }
            #expect(integerIDs(items) == Array(1...itemCount))
            let pages = (itemCount + 49) / 50
            #expect(server.requests.map { $0.query["page"] ?? "1" } == (1...pages).map(String.init))
        }
    }

    @Test func theFixturePageRouteIsPagedWithOneRequestAPage() async throws {
        try await withFixtureServer(.init(itemCount: 100, pageSize: 20)) { server async throws in
            let (source, first) = try await detected(
                client: client(for: server), url: server.url(.page))
            #expect(source.style.endSignal == .pageCount(keyPath: "total_pages"))
            var next = first.nextToken
            while let token = next { next = try await source.fetch(PageRequest(token: token)).page?.nextToken }
            #expect(server.requestCount == 5)
        }
    }

    @Test func aSinglePageOfDjangoRESTFrameworkIsNotFollowedByARequestForPageTwo() async throws {
        try await withFixtureServer { server async throws in
            server.script("/small") { _ in
                .json(#"{"count": 2, "next": null, "previous": null, "results": [{"id": 1}, {"id": 2}]}"#)
            }
            let (source, first) = try await detected(
                client: client(for: server), url: server.url(path: "/small"))
            #expect(source.style.kind == .nextURL(keyPath: "next"))
            #expect(first.nextToken == nil)
            #expect(server.requestCount == 1)
        }
    }

    @Test func lastTrueAndHasMoreFalseEndTheListAtAFullPage() async throws {
        let signals: [(PaginationStyle.EndSignal, String)] = [
            (.isLast(keyPath: "last"), #""last": true"#),
            (.hasMore(keyPath: "meta.has_more"), #""meta": {"has_more": false}"#),
            (.pageCount(keyPath: "page.totalPages"), #""page": {"totalPages": 3}"#),
        ]
        for (signal, member) in signals {
            try await withFixtureServer { server async throws in
                server.script("/list") { _ in .json(#"{"content": [{"id": 1}, {"id": 2}], \#(member)}"#) }
                let source = HTTPPageSource(
                    client: client(for: server), url: server.url(path: "/list"),
                    style: .pageNumber(
                        pageSizeParameter: nil, pageSize: 2, itemsKeyPath: "content", endSignal: signal))
                let page = try #require(try await source.fetch(PageRequest(token: PageToken(3))).page)
                #expect(page.nextToken == nil, "\(signal)")
                let earlier = try #require(try await source.fetch(PageRequest(token: PageToken(1))).page)
                let expected: PageToken? = if case .pageCount = signal { PageToken(2) } else { nil }
                #expect(earlier.nextToken == expected, "\(signal)")
            }
        }
    }
}
