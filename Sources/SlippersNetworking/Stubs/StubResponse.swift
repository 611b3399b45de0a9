import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A canned HTTP response: status, headers, body, and a delay before it arrives.
///
/// For example:
///
/// ```swift
/// let stub = StubResponse.json(#"{"id": 1, "title": "Hi"}"#, delay: .milliseconds(50))
/// let endpoint = Endpoint(.get, "posts/1").stubbed(stub)
/// ```
public struct StubResponse: Sendable, Equatable {
    /// The HTTP status code.
    var statusCode: Int
    /// The response headers.
    public var headers: [String: String]
    /// The response body.
    public var body: Data
    /// How long to wait before answering; the wait ends early when the task is cancelled.
    package var delay: Duration

    /// Creates a stubbed response.
    public init(statusCode: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: Duration = .zero) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// A JSON response with `Content-Type: application/json`.
    public static func json(
        _ text: String, statusCode: Int = 200, headers: [String: String] = [:], delay: Duration = .zero
    ) -> StubResponse {
        StubResponse(
            statusCode: statusCode,
            headers: headers.merging(["Content-Type": "application/json"]) { old, _ in old },
            body: Data(text.utf8),
            delay: delay)
    }

    /// The response as a ``NetworkResponse`` for a URL.
    package func response(for url: URL?) -> NetworkResponse {
        NetworkResponse(statusCode: statusCode, headers: headers, body: body, url: url)
    }
}
