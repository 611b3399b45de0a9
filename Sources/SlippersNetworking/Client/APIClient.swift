import Foundation
import Logging
import Slippers
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads resources from an API: configuration, transport, retries, authentication, origin policy and stubs in one value.
///
/// For example:
///
/// ```swift
/// let client = APIClient(configuration: ServerConfiguration(host: "api.example.com", apiRoute: "v1"))
/// let post = try await client.load(Resource<Post>(json: Endpoint(.get, "posts/1")))
/// ```
///
/// A request answered with a status of 400 or more throws ``NetworkError``
/// (after the retries the ``RetryPolicy`` allows); `304 Not Modified` is an
/// answer, not an error.
///
/// The client follows redirects itself, at most ``maxRedirects`` in a row, under
/// its ``originPolicy``: the caller's headers and credentials go only to the
/// origin the request started at (or a trusted one), and a redirect to an
/// origin that is not allowed fails with ``NetworkError/Kind/originRefused(_:)``.
///
/// The client keeps each origin's rate limit (``rateLimiter``): it reads the budget of every
/// answer, paces requests so the budget lasts, and waits for the reset when a `429` or `403`
/// says the budget is spent, instead of failing; ``onRateLimitWait`` reports each wait.
///
/// The client logs to its ``logger``: every exchange and redirect at `debug`
/// (method, URL, status, elapsed time, request headers), retries and
/// credential renewals at `info`. Credentials never reach the log: the
/// values of `Authorization`, `Cookie` and key-like headers are replaced by
/// `<redacted>`, and so are those of secret-looking query parameters.
public struct APIClient: Sendable {
    /// Where the API lives, and whether to stub it.
    package var configuration: ServerConfiguration
    /// What sends the requests.
    public var transport: any HTTPTransport
    /// How failed requests are retried.
    public var retryPolicy: RetryPolicy
    /// What adds credentials and renews them on `401`; it is asked only for the home origin and trusted ones.
    package var authenticator: (any HTTPAuthenticator)?
    /// Which other origins requests may be redirected to, and which of them get credentials.
    public var originPolicy: OriginPolicy
    /// The most redirects followed in a row for one request.
    var maxRedirects: Int
    /// Called before each retry with the attempt that failed, its error and the wait; for counting and logging.
    public var onRetry: (@Sendable (RetryEvent) -> Void)?
    /// What keeps requests within each origin's rate-limit budget; shared by copies of the client.
    public var rateLimiter: RateLimiter
    /// Called when requests wait for a rate limit: once per refused request, and once per wait for a spent budget.
    public var onRateLimitWait: (@Sendable (RateLimitWait) -> Void)?
    /// How the client waits between attempts; `Task.sleep` unless a test replaces it.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Where the client reports its exchanges, redirects, retries and credential renewals; discards them unless given.
    public var logger: Logger
    /// Where the client's request spans go (`HTTP GET`, with the origin, status and bytes, never a
    /// path, a query or a header's value); the tracer the program bootstrapped, unless given.
    public var tracer: any Tracer

    /// A retry about to happen.
    public struct RetryEvent: Sendable {
        /// The number of the attempt that failed, from 1.
        public var attempt: Int
        /// Why it failed.
        public var error: NetworkError
        /// How long the client waits before the next attempt.
        public var delay: Duration
    }

    /// A wait for a server's rate limit.
    ///
    /// For example, one line per wait:
    ///
    /// ```swift
    /// client.onRateLimitWait = { wait in
    ///     if wait.startsWait { print("rate limit of \(wait.origin.host) spent: waiting until \(wait.until)") }
    /// }
    /// ```
    public struct RateLimitWait: Sendable {
        /// The origin whose budget is spent.
        public var origin: Origin
        /// When requests to the origin go again.
        public var until: Date
        /// How long the wait is.
        public var delay: Duration
        /// The status of the answer that refused a request (`429` or `403`); `nil` when the
        /// budget the answers announced is spent and no request was refused.
        package var refusedStatus: Int?
        /// Whether this starts a wait no earlier event reported (`false` for another request
        /// refused during a wait already reported): what to tell people once.
        public var startsWait: Bool
    }

    /// Loads a resource: calls its endpoint (or its stub) and parses the response.
    ///
    /// The response is parsed inside the retries, so a body cut short (see
    /// ``NetworkError/Kind/truncatedBody(bodySnippet:)``) is fetched again.
    ///
    /// - throws: ``NetworkError``; a parse failure becomes ``NetworkError/Kind/decoding(path:reason:bodySnippet:)``.
    ///   `CancellationError` when the task is cancelled.
    public func load<A>(_ resource: Resource<A>) async throws -> A {
        try await response(for: resource.endpoint) { response in
            do {
                return try resource.parse(response)
            } catch let error as NetworkError {
                throw error
            } catch {
                throw NetworkError(decoding: error, body: response.body, url: response.url)
            }
        }
    }

    /// Calls an endpoint and returns its response; answers with a status of 400 or more throw.
    ///
    /// When stubbing is on for the configuration or the endpoint, the
    /// endpoint's stub is returned and nothing reaches the transport. The
    /// request is built again for every attempt, so a body streamed from a
    /// file is sent whole each time. The configuration's origin is the home origin.
    ///
    /// - throws: ``NetworkError``, or `CancellationError` when the task is cancelled.
    package func response(for endpoint: Endpoint) async throws -> NetworkResponse {
        try await response(for: endpoint) { $0 }
    }

    private func response<T>(
        for endpoint: Endpoint, reading read: (NetworkResponse) throws -> T
    ) async throws -> T {
        let configuration = self.configuration
        // The request is built from the configuration, so its own origin is the configuration's: home.
        let makeRequest = { try endpoint.urlRequest(in: configuration) }
        if configuration.shouldStub || endpoint.shouldStub {
            guard let stub = endpoint.stub else { throw NetworkError(.missingStub(path: endpoint.path)) }
            return try await send(
                through: StubTransport(stub), home: nil, isRepeatable: true, makeRequest, reading: read)
        }
        return try await send(through: transport, home: nil, isRepeatable: true, makeRequest, reading: read)
    }

    /// Sends a prepared request with authentication, redirects and retries; answers with a status of 400 or more throw.
    ///
    /// The request's own origin is the home origin. A request whose body is a
    /// stream (`httpBodyStream`) is sent once: a stream cannot be read twice.
    /// Use ``response(for:)`` with an ``Endpoint/Body/file(_:)`` body to have such requests retried.
    ///
    /// - throws: ``NetworkError``, or `CancellationError` when the task is cancelled.
    public func send(_ request: URLRequest) async throws -> NetworkResponse {
        try await send(request, home: nil) { $0 }
    }

    /// Sends a prepared request and reads its response, both inside the retries.
    ///
    /// `read` runs on every successful response; when it throws a transient
    /// ``NetworkError`` (a body cut short) the request is tried again like a
    /// dropped connection. Credentials and the caller's headers go only to
    /// `home` (the request's own origin when `nil`) and trusted origins; a URL
    /// on another origin is sent without them when allowed and refused otherwise.
    ///
    /// - throws: ``NetworkError``, what `read` throws, or `CancellationError` when the task is cancelled.
    public func send<T>(
        _ request: URLRequest, home: Origin?, reading read: (NetworkResponse) throws -> T
    ) async throws -> T {
        try await send(
            through: transport, home: home, isRepeatable: request.httpBodyStream == nil, { request }, reading: read)
    }

    private func send<T>(
        through transport: any HTTPTransport,
        home: Origin?,
        isRepeatable: Bool,
        _ makeRequest: () throws -> URLRequest,
        reading read: (NetworkResponse) throws -> T
    ) async throws -> T {
        var attempt = 0
        var refreshedCredentials = false
        var widenedAccept = false
        var unnamedRefusals = 0
        var rateLimitWaited = Duration.zero
        var waitedUntil: ContinuousClock.Instant?
        while true {
            attempt += 1
            try Task.checkCancellation()
            var request = try makeRequest()
            let asksJSONOnly = JSONMediaTypes.asksJSONOnly(request)
            if asksJSONOnly, widenedAccept || JSONMediaTypes.refusesPlainJSON(request.url) {
                request.setValue(JSONMediaTypes.family, forHTTPHeaderField: "Accept")
            }
            do {
                let (response, hadCredentials) = try await exchange(
                    request, home: home, through: transport, waitedUntil: waitedUntil)
                let limits = RateLimitHeaders(response)
                if isRepeatable, limits.isRefusal(status: response.statusCode),
                    let origin = (response.url ?? request.url).flatMap(Origin.init)
                {
                    // A refusal that names no wait to come counts as an attempt, so that a server
                    // answering `Retry-After: 0` for ever ends the retries.
                    let named = limits.refusalWait ?? .zero
                    if named <= .zero {
                        unnamedRefusals += 1
                        guard unnamedRefusals < retryPolicy.maxAttempts else {
                            throw NetworkError(response: response, method: request.httpMethod)
                        }
                    }
                    let wait = max(named, retryPolicy.baseDelay)
                    rateLimitWaited += wait
                    guard rateLimitWaited <= rateLimiter.maxWait else {
                        throw NetworkError(
                            .rateLimited(wait: wait), url: response.url ?? request.url, method: request.httpMethod)
                    }
                    let (until, announcement) = rateLimiter.block(origin, for: wait, spent: limits.isSpent)
                    RequestMetrics.recordRefusal(origin: origin, status: response.statusCode)
                    logger.info(
                        "waiting for the rate limit",
                        metadata: [
                            "origin": "\(origin)", "status": "\(response.statusCode)",
                            "delay_ms": "\(wait.milliseconds)",
                        ])
                    onRateLimitWait?(
                        RateLimitWait(
                            origin: origin, until: announcement?.until ?? Date().addingTimeInterval(wait.timeInterval),
                            delay: wait, refusedStatus: response.statusCode, startsWait: announcement != nil))
                    try await sleep(wait)
                    waitedUntil = until
                    attempt -= 1
                    continue
                }
                if response.statusCode == 406, asksJSONOnly, !widenedAccept, isRepeatable {
                    // A server that serves a JSON media type of its own (JSON:API, HAL) is asked for the family.
                    widenedAccept = true
                    JSONMediaTypes.noteRefusal(request.url)
                    attempt -= 1
                    continue
                }
                if response.statusCode == 401, let authenticator, hadCredentials, !refreshedCredentials,
                    isRepeatable
                {
                    refreshedCredentials = true
                    logger.info(
                        "renewing credentials after 401",
                        metadata: ["url": "\(Self.loggedURL(response.url ?? request.url))"])
                    try await authenticator.renewCredentials()
                    attempt -= 1
                    continue
                }
                guard response.statusCode < 400 else {
                    throw NetworkError(response: response, method: request.httpMethod)
                }
                return try read(response)
            } catch let error as NetworkError {
                guard isRepeatable, unnamedRefusals < retryPolicy.maxAttempts,
                    let wait = retryPolicy.delay(afterAttempt: attempt, error: error)
                else {
                    throw error
                }
                logger.info(
                    "retrying",
                    metadata: [
                        "attempt": "\(attempt)", "delay_ms": "\(wait.milliseconds)",
                        "error": "\(error.description)",
                    ])
                onRetry?(RetryEvent(attempt: attempt, error: error, delay: wait))
                RequestMetrics.recordRetry(url: request.url)
                try await sleep(wait)
            }
        }
    }

    /// Sends a request and follows its redirects under the origin policy.
    ///
    /// - returns: The final response, and whether it was sent with credentials.
    private func exchange(
        _ request: URLRequest, home: Origin?, through transport: any HTTPTransport,
        waitedUntil: ContinuousClock.Instant?
    ) async throws -> (NetworkResponse, hadCredentials: Bool) {
        guard let firstURL = request.url, let home = home ?? Origin(firstURL) else {
            throw NetworkError(.invalidURL(request.url.map(NetworkError.redacting) ?? "(none)"))
        }
        var current = request
        var visited: Set<String> = [firstURL.absoluteString]
        var redirects = 0
        while true {
            let url = current.url ?? firstURL
            var prepared = current
            let hadCredentials: Bool
            switch originPolicy.decision(for: url, home: home) {
            case .refused(let refusal):
                throw NetworkError(.originRefused(refusal), url: url, method: current.httpMethod)
            case .withoutCredentials:
                prepared = OriginPolicy.strippingCredentials(current)
                hadCredentials = false
            case .withCredentials:
                if let authenticator { prepared = try await authenticator.authorize(current) }
                hadCredentials = true
            }
            let response = try await paced(
                prepared, to: Origin(url), through: transport, hop: redirects,
                waitedUntil: redirects == 0 ? waitedUntil : nil)
            guard Self.redirectStatuses.contains(response.statusCode) else { return (response, hadCredentials) }
            guard let location = response.header("Location") else {
                throw NetworkError(
                    .redirectFailed(.missingLocation(status: response.statusCode)), url: url,
                    method: current.httpMethod)
            }
            guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                throw NetworkError(.invalidURL(location), url: url, method: current.httpMethod)
            }
            guard redirects < maxRedirects else {
                throw NetworkError(
                    .redirectFailed(.tooMany(limit: maxRedirects)), url: next, method: current.httpMethod)
            }
            guard visited.insert(next.absoluteString).inserted else {
                throw NetworkError(.redirectFailed(.loop), url: next, method: current.httpMethod)
            }
            redirects += 1
            logger.debug(
                "following redirect",
                metadata: [
                    "status": "\(response.statusCode)", "from": "\(Self.loggedURL(url))",
                    "to": "\(Self.loggedURL(next))", "hop": "\(redirects)",
                ])
            current = Self.redirected(current, to: next, status: response.statusCode)
        }
    }

    /// Sends one request within its origin's rate-limit budget, and records the budget its answer gives.
    private func paced(
        _ request: URLRequest, to origin: Origin?, through transport: any HTTPTransport, hop: Int,
        waitedUntil: ContinuousClock.Instant?
    ) async throws -> NetworkResponse {
        guard let origin else {
            let started = ContinuousClock.now
            let response = try await RequestTracing.request(tracer, request, origin: nil) {
                try await transport.send($0)
            }
            logExchange(request, response, elapsed: started.duration(to: .now), hop: hop)
            return response
        }
        let onRateLimitWait = self.onRateLimitWait
        let logger = self.logger
        try await rateLimiter.acquire(
            origin, url: request.url, method: request.httpMethod, waitedUntil: waitedUntil, sleep: sleep
        ) { wait in
            logger.info(
                "waiting for the rate limit",
                metadata: ["origin": "\(origin)", "delay_ms": "\(wait.delay.milliseconds)"])
            onRateLimitWait?(
                RateLimitWait(
                    origin: origin, until: wait.until, delay: wait.delay, refusedStatus: nil, startsWait: true))
        }
        let started = ContinuousClock.now
        let response: NetworkResponse
        do {
            response = try await RequestTracing.request(tracer, request, origin: origin) {
                try await transport.send($0)
            }
        } catch {
            rateLimiter.release(origin)
            RequestMetrics.recordFailure(origin: origin)
            throw error
        }
        logExchange(request, response, elapsed: started.duration(to: .now), hop: hop)
        let limits = RateLimitHeaders(response)
        RequestMetrics.recordResponse(response, origin: origin, remaining: limits.remaining)
        rateLimiter.record(origin, limits)
        await rateLimiter.share(origin, limits)
        return response
    }

    private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request a redirect asks for: `303`, and `301`/`302` after a `POST`, become a `GET` without a body.
    private static func redirected(_ request: URLRequest, to url: URL, status: Int) -> URLRequest {
        var next = request
        next.url = url
        let method = request.httpMethod?.uppercased() ?? "GET"
        if status == 303 && method != "HEAD" || (status == 301 || status == 302) && method == "POST" {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        return next
    }
}
