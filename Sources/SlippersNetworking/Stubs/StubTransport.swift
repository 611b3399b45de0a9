import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers from memory, never touching the network.
///
/// For example, a transport that fails twice and then succeeds:
///
/// ```swift
/// let attempts = Mutex(0)
/// let transport = StubTransport { _ in
///     let attempt = attempts.withLock { $0 += 1; return $0 }
///     return attempt <= 2 ? .json(#"{"error": "busy"}"#, statusCode: 503) : .json("[]")
/// }
/// let client = APIClient(configuration: configuration, options: .init(transport: transport))
/// let response = try await client.send(URLRequest(url: url))    // 200, on the third attempt
/// ```
public struct StubTransport: HTTPTransport {
    private let respond: @Sendable (URLRequest) async throws -> StubResponse

    /// Creates a transport that answers each request with what `respond` returns or throws.
    public init(_ respond: @escaping @Sendable (URLRequest) async throws -> StubResponse) {
        self.respond = respond
    }

    /// Creates a transport that answers every request with the same response.
    public init(_ response: StubResponse) {
        self.respond = { _ in response }
    }

    /// Answers the request after the stub's delay.
    ///
    /// - throws: What the closure throws; `CancellationError` when the task is cancelled during the delay.
    public func send(_ request: URLRequest) async throws -> NetworkResponse {
        try Task.checkCancellation()
        let stub = try await respond(request)
        if stub.delay > .zero { try await Task.sleep(for: stub.delay) }
        return stub.response(for: request.url)
    }
}
