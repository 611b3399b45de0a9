import Foundation
import Slippers
import SlippersNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Stubs for pages: a stubbed list pages with no server, and stubbing never falls through to the network.
@Suite struct PageStubTests {
    /// A transport that must not be reached.
    struct Unreachable: HTTPTransport {
        struct Reached: Error {}
        func send(_ request: URLRequest) async throws -> NetworkResponse { throw Reached() }
    }

    let url = URL(string: "https://api.example.com/notes")!
    let style = PaginationStyle.pageNumber(pageSize: 2, itemsKeyPath: "results")
    let pages = PageStub.pages([
        #"{"results": [{"id": 1}, {"id": 2}]}"#,
        #"{"results": [{"id": 3}]}"#,
    ])

    func client(stubbing: Bool) -> APIClient {
        APIClient(
            configuration: ServerConfiguration(host: "api.example.com", shouldStub: stubbing),
            options: APIClient.Options(transport: Unreachable(), retryPolicy: .none))
    }

    @Test func theConfigurationsStubbingServesThePagesOfAList() async throws {
        let source = HTTPPageSource(client: client(stubbing: true), url: url, style: style).stubbed(pages)
        let first = try #require(try await source.fetch(.first).page)
        #expect(first.items.map(\.key.description) == ["1", "2"])
        let second = try #require(try await source.fetch(PageRequest(token: first.nextToken)).page)
        #expect(second.items.count == 1)
        #expect(second.nextToken == nil)
    }

    @Test func stubbingWithoutAStubFailsInsteadOfReachingTheNetwork() async throws {
        let source = HTTPPageSource(client: client(stubbing: true), url: url, style: style)
        await #expect {
            try await source.fetch(.first)
        } throws: { error in
            guard let error = error as? NetworkError, case .missingStub = error.kind else { return false }
            return true
        }
    }

    @Test func aStubIsUsedOnlyWhenStubbingIsOnUnlessTheSourceAlwaysStubs() async throws {
        let live = HTTPPageSource(client: client(stubbing: false), url: url, style: style).stubbed(pages)
        await #expect(throws: (any Error).self) { try await live.fetch(.first) }
        let always = HTTPPageSource(client: client(stubbing: false), url: url, style: style)
            .stubbed(pages, always: true)
        #expect(try await always.fetch(.first).page?.items.count == 2)
    }

    @Test func anEndpointsStubAnswersItsSource() async throws {
        let endpoint = Endpoint(.get, "notes").stubbed(.json(#"{"results": [{"id": 9}]}"#))
        let source = try HTTPPageSource(client: client(stubbing: true), endpoint: endpoint, style: style)
        let page = try #require(try await source.fetch(.first).page)
        #expect(page.items.map(\.key.description) == ["9"])
        #expect(page.nextToken == nil)
    }

    @Test func detectionReadsTheStubbedFirstPage() async throws {
        let (source, first) = try await detected(client: client(stubbing: true), url: url, stub: pages)
        #expect(first.items.count == 2)
        #expect(source.stub != nil)
    }

    @Test func aPagePastTheLastIsNotFound() async throws {
        let source = HTTPPageSource(client: client(stubbing: true), url: url, style: style).stubbed(pages)
        await #expect(throws: NetworkError.self) { try await source.fetch(PageRequest(token: PageToken(7))) }
    }
}
