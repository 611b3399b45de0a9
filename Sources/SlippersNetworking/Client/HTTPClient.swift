import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads resources from an API: configuration, transport, retries, authentication and stubs in one value.
///
/// For example:
///
/// ```swift
/// let client = HTTPClient(configuration: ServerConfiguration(host: "api.example.com", apiRoute: "v1"))
/// let post = try await client.load(Resource<Post>(json: Endpoint(.get, "posts/1")))
/// ```
///
/// A request answered with a status of 400 or more throws ``NetworkError``
/// (after the retries the ``RetryPolicy`` allows); `304 Not Modified` is an
/// answer, not an error.
public struct HTTPClient: Sendable {
    /// Where the API lives, and whether to stub it.
    public var configuration: ServerConfiguration
    /// What sends the requests.
    public var transport: any HTTPTransport
    /// How failed requests are retried.
    public var retryPolicy: RetryPolicy
    /// What adds credentials and renews them on `401`.
    public var authenticator: (any HTTPAuthenticator)?
    /// How the client waits between attempts; `Task.sleep` unless a test replaces it.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a client.
    public init(
        configuration: ServerConfiguration,
        transport: any HTTPTransport = HTTPClient.defaultTransport,
        retryPolicy: RetryPolicy = .default,
        authenticator: (any HTTPAuthenticator)? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.authenticator = authenticator
        self.sleep = sleep
    }

    /// Loads a resource: calls its endpoint (or its stub) and parses the response.
    ///
    /// - throws: ``NetworkError``; a parse failure becomes ``NetworkError/Kind/decoding(path:reason:bodySnippet:)``.
    ///   `CancellationError` when the task is cancelled.
    public func load<A>(_ resource: Resource<A>) async throws -> A {
        let response = try await response(for: resource.endpoint)
        do {
            return try resource.parse(response)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError(decoding: error, body: response.body, url: response.url)
        }
    }

    /// Calls an endpoint and returns its response; answers with a status of 400 or more throw.
    ///
    /// When stubbing is on for the configuration or the endpoint, the
    /// endpoint's stub is returned and nothing reaches the transport. The
    /// request is built again for every attempt, so a body streamed from a
    /// file is sent whole each time.
    ///
    /// - throws: ``NetworkError``, or `CancellationError` when the task is cancelled.
    public func response(for endpoint: Endpoint) async throws -> NetworkResponse {
        let configuration = self.configuration
        let makeRequest = { try endpoint.urlRequest(in: configuration) }
        if configuration.shouldStub || endpoint.shouldStub {
            guard let stub = endpoint.stub else { throw NetworkError(.missingStub(path: endpoint.path)) }
            return try await send(through: StubTransport(stub), isRepeatable: true, makeRequest)
        }
        return try await send(through: transport, isRepeatable: true, makeRequest)
    }

    /// Sends a prepared request with authentication and retries; answers with a status of 400 or more throw.
    ///
    /// A request whose body is a stream (`httpBodyStream`) is sent once: a
    /// stream cannot be read twice. Use ``response(for:)`` with an
    /// ``Endpoint/Body/file(_:)`` body to have such requests retried.
    ///
    /// - throws: ``NetworkError``, or `CancellationError` when the task is cancelled.
    public func send(_ request: URLRequest) async throws -> NetworkResponse {
        try await send(through: transport, isRepeatable: request.httpBodyStream == nil) { request }
    }

    private func send(
        through transport: any HTTPTransport,
        isRepeatable: Bool,
        _ makeRequest: () throws -> URLRequest
    ) async throws -> NetworkResponse {
        var attempt = 0
        var refreshedCredentials = false
        while true {
            attempt += 1
            try Task.checkCancellation()
            let request = try makeRequest()
            do {
                var prepared = request
                if let authenticator { prepared = try await authenticator.authorize(request) }
                let response = try await transport.send(prepared)
                if response.statusCode == 401, let authenticator, !refreshedCredentials, isRepeatable {
                    refreshedCredentials = true
                    try await authenticator.refresh()
                    attempt -= 1
                    continue
                }
                guard response.statusCode < 400 else {
                    throw NetworkError(response: response, method: request.httpMethod)
                }
                return response
            } catch let error as NetworkError {
                guard isRepeatable, let wait = retryPolicy.delay(afterAttempt: attempt, error: error) else {
                    throw error
                }
                try await sleep(wait)
            }
        }
    }
}
