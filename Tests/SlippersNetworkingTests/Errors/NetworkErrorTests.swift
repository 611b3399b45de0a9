import Foundation
import SlippersNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct NetworkErrorTests {
    private let url = URL(string: "https://api.test/items?page=2&access_token=s3cr3t&api_key=k3y")!

    @Test func urlErrorsMapToTransportKinds() {
        let cases: [(URLError.Code, NetworkError.Kind.Transport)] = [
            (.cannotConnectToHost, .cannotConnect), (.notConnectedToInternet, .cannotConnect),
            (.cannotFindHost, .cannotConnect), (.timedOut, .timeout), (.cancelled, .cancelled),
            (.networkConnectionLost, .connectionLost),
        ]
        for (code, transport) in cases {
            #expect(NetworkError(urlError: URLError(code), url: url).kind == .transport(transport))
        }
        guard case .invalidURL = NetworkError(urlError: URLError(.badURL), url: url).kind else {
            Issue.record("expected an invalid URL")
            return
        }
        guard case .transport(.other) = NetworkError(urlError: URLError(.httpTooManyRedirects), url: url).kind else {
            Issue.record("expected another transport failure")
            return
        }
    }

    @Test func everyDescriptionIsOneLineWithoutSecrets() {
        let errors: [NetworkError] = [
            NetworkError(urlError: URLError(.timedOut), url: url, method: "GET"),
            NetworkError(
                response: NetworkResponse(statusCode: 503, body: Data("down\nfor\nmaintenance".utf8), url: url)),
            NetworkError(
                .decoding(path: "results[3].id", reason: "missing", bodySnippet: "{\"results\":\n["), url: url),
            NetworkError(.notAdvancing(token: "abc"), url: url), NetworkError(.invalidURL("ht tp://")),
            NetworkError(.invalidToken("x"), url: url), NetworkError(.missingStub(path: "posts")),
            NetworkError(.transport(.other("boom")), url: url), NetworkError(.transport(.cannotConnect), url: url),
            NetworkError(.transport(.connectionLost)), NetworkError(.transport(.cancelled)),
            NetworkError(.responseTooLarge(limit: 64 << 20), url: url),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"), "\(error)")
            #expect(!error.description.contains("s3cr3t"), "\(error)")
            #expect(!error.description.contains("k3y"), "\(error)")
        }
        #expect(errors[0].description.contains("page=2"))
        #expect(errors[1].description.hasPrefix("HTTP 503"))
        #expect(errors[2].description.contains("results[3].id"))
    }

    @Test func aResponseTooLargeNamesTheLimitAndTheOptionAndIsNotRetried() {
        let error = NetworkError(.responseTooLarge(limit: 64 << 20), url: url, method: "GET")
        #expect(!error.isTransient)
        #expect(error.description.hasPrefix("The response is larger than the limit of 64 MB (GET https://api.test/"))
        #expect(error.description.contains("--max-body-size"))
        #expect(NetworkError(.responseTooLarge(limit: 1536)).description.contains("1.5 KB"))
        #expect(NetworkError(.responseTooLarge(limit: 100)).description.contains("100 bytes"))
    }

    @Test func httpErrorsKeepTheStatusABoundedSnippetAndRetryAfter() {
        let body = Data(String(repeating: "x", count: 5_000).utf8)
        let error = NetworkError(
            response: NetworkResponse(statusCode: 429, headers: ["retry-after": "7"], body: body, url: url))
        #expect(error.status == 429)
        #expect(error.retryAfter == .seconds(7))
        guard case .http(_, let snippet) = error.kind else {
            Issue.record("expected an HTTP error")
            return
        }
        #expect(snippet.count <= NetworkError.snippetLength + 1)
    }

    @Test func anHTMLErrorPageIsToldByItsTitleOrHeadingNotItsMarkup() {
        let page = """
            <!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">
            <html><head>
            <title>502 Proxy
              Error</title>
            </head><body><h1>Proxy Error</h1>
            """
        #expect(NetworkError(.http(status: 502, bodySnippet: page)).description == "HTTP 502: 502 Proxy Error")
        let headingOnly = "  <html><body><H1>Service Unavailable</H1><p>Try later.</p></body></html>"
        #expect(
            NetworkError(.http(status: 503, bodySnippet: headingOnly)).description == "HTTP 503: Service Unavailable")
        #expect(NetworkError(.http(status: 500, bodySnippet: "<html><body><p>oops")).description == "HTTP 500")
        let json = #"{"detail": "<html> is not allowed"}"#
        #expect(NetworkError(.http(status: 400, bodySnippet: json)).description == "HTTP 400: \(json)")
    }

    @Test func decodingErrorsNameTheCodingPath() throws {
        struct Item: Decodable {
            var id: Int
            var tags: [String]
        }
        let body = Data(#"{"id": 1, "tags": ["a", 2]}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Item.self, from: body)
            Issue.record("expected a decoding failure")
        } catch {
            let networkError = NetworkError(decoding: error, body: body, url: url)
            guard case .decoding(let path, _, let snippet) = networkError.kind else {
                Issue.record("expected a decoding error")
                return
            }
            #expect(path == "tags[1]")
            #expect(snippet == #"{"id": 1, "tags": ["a", 2]}"#)
        }
    }

    @Test func transientKindsAreThoseWorthRetrying() {
        #expect(NetworkError(.transport(.timeout)).isTransient)
        #expect(!NetworkError(.transport(.cancelled)).isTransient)
        #expect(NetworkError(.http(status: 503, bodySnippet: "")).isTransient)
        #expect(!NetworkError(.http(status: 404, bodySnippet: "")).isTransient)
    }
}
