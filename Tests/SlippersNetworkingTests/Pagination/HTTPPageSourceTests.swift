import Foundation
import Slippers
import SlippersNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The page source against scripted responses: URLs, tokens, end of list, validators, errors.
@Suite struct HTTPPageSourceTests {
    private func source(
        _ style: PaginationStyle, url: String = "https://api.test/v1/items?sort=new&page=7",
        _ transport: ScriptedTransport
    ) -> HTTPPageSource {
        HTTPPageSource(
            client: APIClient(
                configuration: ServerConfiguration(host: "api.test"),
                options: APIClient.Options(transport: transport, retryPolicy: .none)),
            url: URL(string: url)!, style: style, headers: ["X-Api-Key": "k"])
    }

    @Test func pageNumberTokensBuildURLsAndTheShortPageEndsTheList() async throws {
        let transport = ScriptedTransport(
            .json(#"[{"id": 1}, {"id": 2}]"#), .json(#"[{"id": 3}]"#))
        let source = source(.pageNumber(firstPage: 0, pageSize: 2), transport)
        let first = try #require(try await source.fetch(.first).page)
        #expect(first.nextToken == PageToken(1))
        let second = try #require(try await source.fetch(PageRequest(token: first.nextToken)).page)
        #expect(second.nextToken == nil)
        #expect(
            transport.requests.map { $0.url?.absoluteString } == [
                "https://api.test/v1/items?sort=new&page=0&per_page=2",
                "https://api.test/v1/items?sort=new&page=1&per_page=2",
            ])
        #expect(transport.requests.first?.value(forHTTPHeaderField: "X-Api-Key") == "k")
    }

    @Test func theTotalEndsAnOffsetList() async throws {
        let transport = ScriptedTransport(.json(#"{"results": [{"id": 5}, {"id": 6}], "total": 6}"#))
        let page = try #require(
            try await source(.offset(limit: 2), transport).fetch(PageRequest(token: PageToken(4))).page)
        #expect(page.total == 6)
        #expect(page.nextToken == nil)
        #expect(transport.requests.first?.url?.query?.contains("offset=4") == true)
    }

    @Test func anEmptyPageEndsEveryStyle() async throws {
        let styles: [PaginationStyle] = [
            .pageNumber(itemsKeyPath: "results"), .offset(), .cursor(itemsKeyPath: "results"), .nextURL(),
            .linkHeader(itemsKeyPath: "results"),
        ]
        for style in styles {
            let transport = ScriptedTransport(
                .json(
                    #"{"results": [], "next": "https://api.test/x?page=9", "next_cursor": "c"}"#,
                    headers: ["Link": #"<https://api.test/x?page=9>; rel="next""#]))
            let page = try #require(try await source(style, transport).fetch(.first).page)
            #expect(page.items.isEmpty)
            #expect(page.nextToken == nil, "\(style.kind)")
        }
    }

    @Test func aCursorThatDoesNotAdvanceThrowsInsteadOfLooping() async throws {
        let transport = ScriptedTransport(.json(#"{"data": [{"id": 1}], "next_cursor": "abc"}"#))
        let source = source(.cursor(), transport)
        let error = await #expect(throws: NetworkError.self) {
            try await source.fetch(PageRequest(token: "abc"))
        }
        #expect(error?.kind == .notAdvancing(token: "abc"))
    }

    @Test func aNextURLEqualToTheRequestThrowsInsteadOfLooping() async throws {
        let transport = ScriptedTransport(.json(#"{"results": [{"id": 1}], "next": "/v1/items?page=2"}"#))
        let source = source(.nextURL(), transport)
        let first = try #require(try await source.fetch(.first).page)
        #expect(first.nextToken?.rawValue == "https://api.test/v1/items?page=2")
        let error = await #expect(throws: NetworkError.self) {
            try await source.fetch(PageRequest(token: first.nextToken))
        }
        guard case .notAdvancing = error?.kind else {
            Issue.record("expected notAdvancing, got \(String(describing: error))")
            return
        }
    }

    @Test func validatorsMakeTheRequestConditionalAndA304IsNotModified() async throws {
        let transport = ScriptedTransport(StubResponse(statusCode: 304, headers: ["ETag": #""v2""#]))
        let request = PageRequest(
            validators: PageValidators(etag: #""v1""#, lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"))
        let result = try await source(.pageNumber(), transport).fetch(request)
        #expect(result == .notModified(PageValidators(etag: #""v2""#, lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")))
        #expect(transport.requests.first?.value(forHTTPHeaderField: "If-None-Match") == #""v1""#)
        #expect(
            transport.requests.first?.value(forHTTPHeaderField: "If-Modified-Since") == "Mon, 01 Jan 2024 00:00:00 GMT")
    }

    @Test func responseValidatorsAreKeptOnThePage() async throws {
        let transport = ScriptedTransport(
            .json(#"[{"id": 1}]"#, headers: ["ETag": #"W/"abc""#, "Last-Modified": "Tue, 02 Jan 2024 00:00:00 GMT"]))
        let page = try #require(try await source(.pageNumber(), transport).fetch(.first).page)
        #expect(page.validators == PageValidators(etag: #"W/"abc""#, lastModified: "Tue, 02 Jan 2024 00:00:00 GMT"))
    }

    @Test func jsonCutShortIsATruncatedBody() async throws {
        let transport = ScriptedTransport(.json(#"{"results": [{"id": 1}, {"id"#))
        let error = await #expect(throws: NetworkError.self) { try await source(.offset(), transport).fetch(.first) }
        guard case .truncatedBody(let snippet) = error?.kind else {
            Issue.record("expected a truncated body, got \(String(describing: error))")
            return
        }
        #expect(error?.isTransient == true)
        #expect(snippet.hasPrefix(#"{"results""#))
    }

    @Test func aTokenThatDoesNotFitTheStyleIsAnError() async throws {
        let transport = ScriptedTransport(.json("[]"))
        await #expect(throws: NetworkError.self) {
            try await source(.pageNumber(), transport).fetch(PageRequest(token: "abc"))
        }
        await #expect(throws: NetworkError.self) {
            try await source(.nextURL(), transport).fetch(PageRequest(token: "ftp://elsewhere/x"))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func theListKeyIgnoresPaginationParametersQueryOrderAndHeaders() {
        let transport = ScriptedTransport(.json("[]"))
        let a = source(
            .pageNumber(pageSize: 20), url: "https://API.test/v1/items?sort=new&page=3&per_page=20&a=1", transport)
        var b = source(.pageNumber(pageSize: 50), url: "https://api.test/v1/items?a=1&sort=new", transport)
        b.headers = ["Authorization": "Bearer secret"]
        #expect(a.listKey == "https://api.test/v1/items?a=1&sort=new")
        #expect(a.listKey == b.listKey)
        #expect(!b.listKey.contains("secret"))
    }

    @Test func typedItemsAreDecodedWithJsonProvider() async throws {
        struct Post: Decodable, Sendable, Equatable {
            let id: ID<Post>
            let createdAt: Date
        }
        let transport = ScriptedTransport(.json(#"[{"id": 3, "created_at": "2024-05-01T12:00:00.250Z"}]"#))
        let page = try #require(try await source(.pageNumber(), transport).decoding(Post.self).fetch(.first).page)
        #expect(page.items.first?.id == 3)
        let bad = ScriptedTransport(.json(#"[{"id": 3}]"#))
        let error = await #expect(throws: NetworkError.self) {
            try await source(.pageNumber(), bad).decoding(Post.self).fetch(.first)
        }
        #expect(error?.description.contains("created_at") == true || error?.description.contains("createdAt") == true)
    }
}
