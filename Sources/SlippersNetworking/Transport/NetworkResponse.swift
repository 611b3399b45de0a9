import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP response: status, headers and body.
public struct NetworkResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers, with the names the server sent.
    public var headers: [String: String]
    /// The response body.
    public var body: Data
    /// The URL the response came from, when known.
    public var url: URL?

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data(), url: URL? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The value of a header, looked up without regard to case.
    public func header(_ name: String) -> String? {
        headers.value(ignoringASCIICase: name)
    }

    /// The `Retry-After` header as a delay: whole seconds, or an HTTP date in the future (zero when it is past).
    package var retryAfter: Duration? {
        RateLimitHeaders(self).retryAfter
    }
}
