import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request and returns its response, whatever the status.
///
/// This is the seam under ``APIClient``: ``AsyncHTTPClientTransport`` and
/// ``URLSessionTransport`` talk to the network, ``StubTransport`` answers from
/// memory. A transport does not retry, authenticate, judge statuses or follow
/// redirects (a `3xx` is returned as a response); the client does.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the response, including `4xx` and `5xx` ones.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/transport(_:)``
    ///   when no response arrives; `CancellationError` when the task is cancelled.
    func send(_ request: URLRequest) async throws -> NetworkResponse
}
