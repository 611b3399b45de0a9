import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Quick retries, so that fault tests finish fast.
let quickRetries = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20), jitter: 0.5)

/// A transport for the integration tests: the default one on this platform, over real sockets.
let loopbackTransport: any HTTPTransport = APIClient.defaultTransport

/// Foundation's URLSession, for the tests of its transport.
let urlSessionTransport = URLSessionTransport(timeout: 20)

/// Starts a fixture server, runs the body, and stops the server whatever happens.
func withFixtureServer<T>(
    _ configuration: FixtureServer.Configuration = .init(),
    _ body: (FixtureServer) async throws -> T
) async throws -> T {
    let server = FixtureServer(configuration: configuration)
    try await server.start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A client of a fixture server over the platform's default transport.
func client(for server: FixtureServer, retryPolicy: RetryPolicy = quickRetries) -> APIClient {
    APIClient(
        configuration: ServerConfiguration(baseURL: server.baseURL) ?? ServerConfiguration(host: "127.0.0.1"),
        options: APIClient.Options(transport: loopbackTransport, retryPolicy: retryPolicy))
}

/// Fetches every page of a source from the first, following next tokens; stops after `maxPages`.
///
/// A `first` page already fetched (by detection) is taken as the first, and not fetched again.
func walk<Source: PageSource>(
    _ source: Source, from first: Page<Source.Item>? = nil, maxPages: Int = 10_000
) async throws -> (items: [Source.Item], pages: [Page<Source.Item>]) {
    var pages: [Page<Source.Item>] = []
    var request = PageRequest.first
    if let first {
        pages.append(first)
        guard let next = first.nextToken else { return (first.items, pages) }
        request = PageRequest(token: next)
    }
    while pages.count < maxPages {
        guard let page = try await source.fetch(request).page else { break }
        pages.append(page)
        guard let next = page.nextToken else { break }
        request = PageRequest(token: next)
    }
    return (pages.flatMap(\.items), pages)
}

/// The integer ids of raw items, in order (string ids become -1).
func integerIDs(_ items: [RawItem]) -> [Int] {
    items.map { item in
        if case .integer(let value) = item.key { return value }
        return -1
    }
}

/// A transport that answers from a list of scripted responses and records the requests it saw.
final class ScriptedTransport: HTTPTransport {
    private let state: Mutex<(responses: [Result<StubResponse, NetworkError>], requests: [URLRequest])>

    init(_ responses: [Result<StubResponse, NetworkError>]) {
        state = Mutex((responses, []))
    }

    convenience init(_ responses: StubResponse...) {
        self.init(responses.map { .success($0) })
    }

    var requests: [URLRequest] { state.withLock { $0.requests } }

    func send(_ request: URLRequest) async throws -> NetworkResponse {
        let next = state.withLock { state -> Result<StubResponse, NetworkError> in
            state.requests.append(request)
            guard !state.responses.isEmpty else { return .failure(NetworkError(.transport(.other("script ended")))) }
            return state.responses.count == 1 ? state.responses[0] : state.responses.removeFirst()
        }
        return try next.get().response(for: request.url)
    }
}

/// Records the delays a client asked to sleep for, without sleeping.
final class SleepRecorder: Sendable {
    private let delays = Mutex<[Duration]>([])

    var recorded: [Duration] { delays.withLock { $0 } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] duration in self.delays.withLock { $0.append(duration) } }
    }
}

/// The source and first page detection finds for the list at `url`, page 2 left to the caller.
func detected(
    client: APIClient, url: URL, headers: [String: String] = [:], stub: PageStub? = nil
) async throws -> (source: HTTPPageSource, firstPage: Page<RawItem>) {
    let found = try await HTTPPageSource.detect(
        client: client, url: url, headers: headers, stub: stub, pageTwo: .never)
    let first = try #require(found.firstPage)
    return (found.source, first)
}
