import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Testing

/// Every pagination style walked to the end against the fixture server over real HTTP on 127.0.0.1.
@Suite struct PaginationWalkTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var configuration: FixtureServer.Configuration
        var route: FixtureServer.Route
        var query: [String: String]
        var style: PaginationStyle
        var testDescription: String { name }
    }

    static let itemCount = 95
    static let pageSize = 10

    static let cases: [Case] = [
        Case(
            name: "page numbers from 1, items under results, total",
            configuration: .init(itemCount: itemCount, pageSize: pageSize, firstPage: 1, itemsKeyPath: "results"),
            route: .page, query: [:],
            style: .pageNumber(firstPage: 1, pageSize: pageSize, itemsKeyPath: "results", totalKeyPath: "total")),
        Case(
            name: "page numbers from 0, the body is the array",
            configuration: .init(itemCount: itemCount, pageSize: pageSize, firstPage: 0, itemsKeyPath: nil),
            route: .page, query: [:], style: .pageNumber(firstPage: 0, pageSize: pageSize)),
        Case(
            name: "page numbers, items under data.items, no page size known",
            configuration: .init(itemCount: itemCount, pageSize: pageSize, itemsKeyPath: "data.items"),
            route: .page, query: [:], style: .pageNumber(pageSizeParameter: nil, itemsKeyPath: "data.items")),
        Case(
            name: "offset and limit with a total",
            configuration: .init(itemCount: itemCount, pageSize: pageSize), route: .offset, query: [:],
            style: .offset(limit: pageSize)),
        Case(
            name: "cursor in the body",
            configuration: .init(itemCount: itemCount, pageSize: pageSize), route: .cursor, query: [:],
            style: .cursor(pageSize: pageSize, itemsKeyPath: "results")),
        Case(
            name: "next URL in the body",
            configuration: .init(itemCount: itemCount, pageSize: pageSize), route: .next,
            query: ["limit": String(pageSize)], style: .nextURL(totalKeyPath: "count")),
        Case(
            name: "Link headers",
            configuration: .init(itemCount: itemCount, pageSize: pageSize), route: .link, query: [:],
            style: .linkHeader(pageSize: pageSize)),
        Case(
            name: "DRF page numbers: a next URL with page advanced",
            configuration: .init(itemCount: itemCount, pageSize: pageSize), route: .drf, query: [:],
            style: .nextURL(totalKeyPath: "count")),
    ]

    @Test(arguments: cases)
    func everyStyleYieldsEachIdOnceInOrder(_ testCase: Case) async throws {
        try await withFixtureServer(testCase.configuration) { server async throws in
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(testCase.route, query: testCase.query),
                style: testCase.style)
            let (items, pages) = try await walk(source, maxPages: 50)
            #expect(integerIDs(items) == Array(1...Self.itemCount))
            #expect(pages.last?.nextToken == nil)
            #expect(pages.allSatisfy { !$0.validators.isEmpty })
            let decoded = try items.map { try $0.decode(FixtureItem.self) }
            #expect(decoded[41] == FixtureItem.make(id: 42))
        }
    }

    @Test(arguments: cases)
    func theStyleIsDetectedFromTheFirstResponseAndTheWalkCompletes(_ testCase: Case) async throws {
        try await withFixtureServer(testCase.configuration) { server async throws in
            var query = testCase.query
            switch testCase.route {
            case .page where testCase.configuration.firstPage == 0: query["page"] = "0"
            case .page, .link: query["per_page"] = String(Self.pageSize)
            case .offset, .cursor: query["limit"] = String(Self.pageSize)
            case .next, .stripe, .slack, .jsonapi, .odata, .spring, .drf, .ninjaOffset, .ninjaPage, .smorest,
                .litestarCursor, .litestarClassic, .contentRange, .ogc, .nextPageHeader, .headerTotals, .rison,
                .jsonQuery, .metaPages, .opaquePages, .continuation, .fieldFilters, .renamedContinuation, .namedItems,
                .linkArrays, .missingArrayEnd, .headerCursor:
                break
            }
            let (source, first) = try await detected(
                client: client(for: server), url: server.url(testCase.route, query: query))
            let (items, _) = try await walk(source, from: first, maxPages: 50)
            #expect(integerIDs(items) == Array(1...Self.itemCount), "detected \(source.style)")
        }
    }

    @Test func pagingResumesFromAStoredStyleAndTokenAlone() async throws {
        try await withFixtureServer(.init(itemCount: 35, pageSize: 10)) { server async throws in
            let original = HTTPPageSource(
                client: client(for: server), url: server.url(.cursor), style: .cursor(itemsKeyPath: "results"))
            let first = try #require(try await original.fetch(.first).page)
            let storedStyle = try JSONEncoder().encode(original.style)
            let storedToken = try #require(first.nextToken).rawValue

            let resumed = HTTPPageSource(
                client: client(for: server), url: server.url(.cursor),
                style: try JSONDecoder().decode(PaginationStyle.self, from: storedStyle))
            var items = first.items
            var request = PageRequest(token: PageToken(storedToken))
            while let page = try await resumed.fetch(request).page {
                items += page.items
                guard let next = page.nextToken else { break }
                request = PageRequest(token: next)
            }
            #expect(integerIDs(items) == Array(1...35))
            #expect(resumed.listKey == original.listKey)
        }
    }

    @Test func aMillionItemListServesItsLastPage() async throws {
        try await withFixtureServer(.init(itemCount: 1_000_000, pageSize: 50)) { server async throws in
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(.offset), style: .offset(limit: 50))
            let page = try #require(try await source.fetch(PageRequest(token: PageToken(999_950))).page)
            #expect(integerIDs(page.items) == Array(999_951...1_000_000))
            #expect(page.total == 1_000_000)
            #expect(page.nextToken == nil)
        }
    }
}
