import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Canned answers for the pages of a list, so that a stubbed list pages with no server: in previews and tests.
///
/// An ``HTTPPageSource`` answers from its stub when stubbing is on for the
/// client's ``ServerConfiguration`` (``ServerConfiguration/shouldStub``) or for
/// the source itself; the responses are read under the source's
/// ``PaginationStyle`` exactly as the server's would be.
///
/// For example, two pages of posts numbered from 1:
///
/// ```swift
/// let stub = PageStub.pages([
///     #"{"results": [{"id": 1, "title": "Hello"}, {"id": 2, "title": "Again"}]}"#,
///     #"{"results": [{"id": 3, "title": "Last"}]}"#,
/// ])
/// let source = HTTPPageSource(client: client, url: url, style: .pageNumber(pageSize: 2, itemsKeyPath: "results"))
///     .stubbed(stub)
/// ```
public struct PageStub: Sendable {
    private let respond: @Sendable (URLRequest) async throws -> StubResponse

    /// Creates a stub that answers each page request with what `respond` returns or throws.
    public init(_ respond: @escaping @Sendable (URLRequest) async throws -> StubResponse) {
        self.respond = respond
    }

    /// A stub that answers every page request with the same response: a list of one page.
    package static func response(_ response: StubResponse) -> PageStub {
        PageStub { _ in response }
    }

    /// A stub of a page-number list: the JSON `bodies` are its pages, in order.
    ///
    /// The page a request asks for is read from its `parameter` query item (the
    /// first page when it has none); a page past the last one answers `404`.
    ///
    /// - parameter bodies: The JSON body of each page.
    /// - parameter parameter: The query parameter of the page number, `page` unless given.
    /// - parameter firstPage: The number of the first page, 1 unless given.
    /// - parameter delay: How long each answer takes, as a slow network would.
    public static func pages(
        _ bodies: [String], parameter: String = "page", firstPage: Int = 1, delay: Duration = .zero
    ) -> PageStub {
        PageStub { request in
            let number = request.url
                .flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }?
                .first { $0.name == parameter }?.value
                .flatMap { Int($0) }
            let index = (number ?? firstPage) - firstPage
            guard bodies.indices.contains(index) else {
                return StubResponse.json(#"{"detail": "Not found"}"#, statusCode: 404, delay: delay)
            }
            return StubResponse.json(bodies[index], delay: delay)
        }
    }

    /// The transport that answers with this stub.
    public var transport: StubTransport { StubTransport(respond) }
}
