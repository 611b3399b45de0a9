import Logging
import Tracing

extension APIClient {
    /// How a client sends: its transport, retries, credentials, origin policy, redirects, log
    /// and tracer, each with a documented default; the server it talks to is its ``ServerConfiguration``.
    ///
    /// For example, a client that never retries and follows the list to a CDN without credentials:
    ///
    /// ```swift
    /// var options = APIClient.Options(retryPolicy: .none)
    /// options.originPolicy = OriginPolicy(allowed: [Origin(parsing: "https://cdn.example.com")!])
    /// let client = APIClient(configuration: ServerConfiguration(host: "api.example.com"), options: options)
    /// ```
    public struct Options: Sendable {
        // MARK: - Sending

        /// What sends the requests: ``APIClient/defaultTransport`` unless set (async-http-client on
        /// Linux, with its TLS trust in ``AsyncHTTPClientTransport/Configuration``).
        public var transport: any HTTPTransport
        /// How failed requests are retried: ``RetryPolicy/default`` (5 attempts) unless set.
        var retryPolicy: RetryPolicy
        /// What keeps requests within each origin's rate-limit budget: a new ``RateLimiter`` unless set.
        public var rateLimiter: RateLimiter
        /// How the client waits between attempts and for rate limits: `Task.sleep` unless set (tests set another).
        var sleep: @Sendable (Duration) async throws -> Void

        // MARK: - Credentials and origins

        /// What adds credentials and renews them on `401`; none unless set.
        package var authenticator: (any HTTPAuthenticator)?
        /// Which other origins requests may be redirected to, and which of them get credentials:
        /// ``OriginPolicy/sameOrigin`` unless set.
        public var originPolicy: OriginPolicy
        /// The most redirects followed in a row for one request: 20 unless set.
        var maxRedirects: Int

        // MARK: - Logging

        /// Where the client reports its exchanges, redirects, retries and renewals; nowhere unless set.
        public var logger: Logger
        /// Where the client's request spans go: the tracer the program bootstrapped
        /// (`InstrumentationSystem.tracer`, a no-op unless it did) when the options were made, unless set.
        public var tracer: any Tracer

        /// Creates options; what is not given keeps its default.
        public init(
            transport: any HTTPTransport = APIClient.defaultTransport,
            retryPolicy: RetryPolicy = .default,
            authenticator: (any HTTPAuthenticator)? = nil,
            originPolicy: OriginPolicy = .sameOrigin,
            maxRedirects: Int = 20,
            rateLimiter: RateLimiter = RateLimiter(),
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
            logger: Logger = Logger(label: "slippers.networking", factory: { _ in SwiftLogNoOpLogHandler() }),
            tracer: any Tracer = InstrumentationSystem.tracer
        ) {
            self.transport = transport
            self.retryPolicy = retryPolicy
            self.authenticator = authenticator
            self.originPolicy = originPolicy
            self.maxRedirects = max(0, maxRedirects)
            self.rateLimiter = rateLimiter
            self.sleep = sleep
            self.logger = logger
            self.tracer = tracer
        }
    }

    /// Creates a client for a server, sending as `options` say.
    ///
    /// For example:
    ///
    /// ```swift
    /// let client = APIClient(configuration: ServerConfiguration(host: "api.example.com"))
    /// ```
    public init(configuration: ServerConfiguration, options: Options = Options()) {
        self.configuration = configuration
        self.transport = options.transport
        self.retryPolicy = options.retryPolicy
        self.authenticator = options.authenticator
        self.originPolicy = options.originPolicy
        self.maxRedirects = options.maxRedirects
        self.rateLimiter = options.rateLimiter
        self.sleep = options.sleep
        self.logger = options.logger
        self.tracer = options.tracer
    }

    /// The options the client sends with: its transport, retries, credentials, origins, redirects, log and tracer.
    var options: Options {
        Options(
            transport: transport, retryPolicy: retryPolicy, authenticator: authenticator, originPolicy: originPolicy,
            maxRedirects: maxRedirects, rateLimiter: rateLimiter, sleep: sleep, logger: logger, tracer: tracer)
    }
}
