// Linux and macOS only: see `nioPlatforms` in Package.swift.
#if canImport(AsyncHTTPClient)

    internal import AsyncHTTPClient
    import Foundation
    internal import NIOCore
    internal import NIOHTTP1
    internal import NIOHTTPCompression
    internal import NIOPosix
    internal import NIOSSL
    import Slippers
    import Synchronization

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A transport on async-http-client and SwiftNIO: bounded in time and in memory, and idle while it waits.
    ///
    /// Every request has a connect timeout, an idle timeout between bytes and a
    /// total deadline, and its body is read up to a size limit, counted after
    /// decompression, so that a hostile or broken server can neither hold a
    /// request forever nor fill the memory. Waiting costs no CPU: the sockets
    /// are watched by NIO's event loops (epoll on Linux), not polled.
    ///
    /// On Linux its kept-alive connections acknowledge what they receive at once
    /// (`TCP_QUICKACK`, set again after every request and every read): a server
    /// that writes a response's head and body apart without `TCP_NODELAY` would
    /// otherwise hold the body until a delayed ACK, about 40 ms a request.
    ///
    /// Redirects are not followed: a `3xx` answer comes back as a response with
    /// its `Location` header, for ``APIClient`` to judge. Responses compressed
    /// with gzip or deflate are decompressed.
    ///
    /// For example:
    ///
    /// ```swift
    /// let transport = AsyncHTTPClientTransport(
    ///     configuration: .init(idleTimeout: .seconds(10), maxBodySize: 8 << 20))
    /// let client = APIClient(configuration: configuration, transport: transport)
    /// ```
    ///
    /// A transport may be dropped at any time: its connections are closed in the
    /// background once its last request has ended.
    public final class AsyncHTTPClientTransport: HTTPTransport {
        /// The limits of every request a transport sends.
        public struct Configuration: Sendable, Equatable {
            /// The longest wait for a connection to open: 10 seconds by default.
            ///
            /// A reachable server accepts within a few round trips; longer means
            /// the address is wrong or filtered, and retrying soon is better.
            public var connectTimeout: Duration
            /// The longest wait for the next byte of the response: 30 seconds by default.
            ///
            /// Long enough for a server that computes a big page before its first
            /// byte, short enough that a server which accepts and never answers
            /// fails in half a minute.
            public var idleTimeout: Duration
            /// The longest a whole request may take, from connecting to the last byte: 120 seconds by default.
            ///
            /// A body of 64 MB arrives within it at 1 MB/s; a server that drips
            /// one byte a second is cut off after it.
            public var deadline: Duration
            /// The most bytes of a response body, counted after decompression: 64 MB by default.
            ///
            /// Pages of JSON are kilobytes to a few megabytes; a larger body is a
            /// mistake or an attack, and fails with ``NetworkError/Kind/responseTooLarge(limit:)``.
            package var maxBodySize: Int
            /// The path of a PEM file of CA certificates to trust for `https`, instead of the
            /// system's; `nil`, the default, for the system's.
            ///
            /// As curl's `--cacert`: for an internal API whose certificate a private CA
            /// signed. The file is read when the first `https` request is sent; when it cannot
            /// be read, every `https` request fails with
            /// ``NetworkError/Kind/TLSFailure/unreadableTrustedCertificates(path:reason:)``
            /// (`http` requests do not use it).
            public var certificateAuthorityFile: String?

            /// The defaults: connect 10 s, idle 30 s, deadline 120 s, bodies up to 64 MB, the system's CAs.
            public static let `default` = Configuration()

            /// Creates a configuration; durations under a millisecond and sizes under one byte are raised to those.
            public init(
                connectTimeout: Duration = .seconds(10),
                idleTimeout: Duration = .seconds(30),
                deadline: Duration = .seconds(120),
                maxBodySize: Int = 64 << 20,
                certificateAuthorityFile: String? = nil
            ) {
                self.connectTimeout = max(connectTimeout, .milliseconds(1))
                self.idleTimeout = max(idleTimeout, .milliseconds(1))
                self.deadline = max(deadline, .milliseconds(1))
                self.maxBodySize = max(maxBodySize, 1)
                self.certificateAuthorityFile = certificateAuthorityFile
            }
        }

        /// A transport with the default configuration, shared by clients that do not bring their own.
        public static let shared = AsyncHTTPClientTransport()

        /// The limits of every request.
        package let configuration: Configuration
        /// The client of every request that needs no certificate of the configuration's file:
        /// `http`, and `https` when the system's CAs are trusted.
        private let client: AsyncHTTPClient.HTTPClient
        /// The client of `https` requests when a file of CAs is named, made with the file's certificates
        /// when the first such request is sent, or why they could not be read.
        private let trusting = Mutex<TrustingClient?>(nil)

        /// The client of `https` requests that trusts a file's CAs, or why the file was refused.
        private enum TrustingClient {
            case made(AsyncHTTPClient.HTTPClient)
            case refused(NetworkError.Kind.TLSFailure)
        }

        /// Creates a transport with its own connection pool on the shared NIO event loops.
        ///
        /// A file of CAs named by the configuration is read when the first `https` request is sent:
        /// a process that only speaks `http` never parses it.
        public init(configuration: Configuration = .default) {
            self.configuration = configuration
            client = Self.makeClient(configuration, tls: nil)
        }

        /// A client with the configuration's timeouts and limits, trusting `tls`'s roots when given.
        private static func makeClient(
            _ configuration: Configuration, tls: TLSConfiguration?
        ) -> AsyncHTTPClient.HTTPClient {
            var clientConfiguration = AsyncHTTPClient.HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(
                    connect: TimeAmount(configuration.connectTimeout),
                    read: TimeAmount(configuration.idleTimeout)),
                decompression: .enabled(limit: .size(configuration.maxBodySize)))
            // APIClient retries transient failures itself, with its own backoff.
            clientConfiguration.connectionPool.retryConnectionEstablishment = false
            // APIClient traces its requests itself: async-http-client's own span would record the URL's path and query.
            clientConfiguration.tracing.tracer = nil
            if let tls { clientConfiguration.tlsConfiguration = tls }
            #if os(Linux)
                // Every connection acknowledges at once: see QuickAckHandler.
                clientConfiguration.http1_1ConnectionDebugInitializer = { QuickAckHandler.install(on: $0) }
                clientConfiguration.http2ConnectionDebugInitializer = { QuickAckHandler.install(on: $0) }
            #endif
            return AsyncHTTPClient.HTTPClient(
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: clientConfiguration)
        }

        /// The client that sends a request to `url`: the one trusting the configuration's file for
        /// `https` when a file is named (made on first use), else the plain one.
        ///
        /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/TLSFailure/unreadableTrustedCertificates(path:reason:)``
        ///   when the file could not be read.
        private func client(for url: URL, method: String?) throws -> AsyncHTTPClient.HTTPClient {
            guard let path = configuration.certificateAuthorityFile, url.scheme?.lowercased() == "https" else {
                return client
            }
            let trusting = trusting.withLock { made -> TrustingClient in
                if let made { return made }
                let new: TrustingClient
                do {
                    guard let bytes = FileManager.default.contents(atPath: path) else {
                        throw TrustFileError.unreadable
                    }
                    let certificates = try NIOSSLCertificate.fromPEMBytes(Array(bytes))
                    guard !certificates.isEmpty else { throw TrustFileError.noCertificate }
                    var tls = TLSConfiguration.makeClientConfiguration()
                    tls.trustRoots = .certificates(certificates)
                    new = .made(Self.makeClient(configuration, tls: tls))
                } catch {
                    new = .refused(.unreadableTrustedCertificates(path: path, reason: Self.trustFileReason(error)))
                }
                made = new
                return new
            }
            switch trusting {
            case .made(let client): return client
            case .refused(let failure): throw NetworkError(.transport(.tls(failure)), url: url, method: method)
            }
        }

        deinit {
            // Shutting down with a callback never blocks, so it is safe on any thread,
            // event loops included; a client keeps itself alive until it is done.
            client.shutdown { _ in }
            if case .made(let trusting) = trusting.withLock({ $0 }) { trusting.shutdown { _ in } }
        }

        /// Sends a request and reads its whole body, within the configuration's limits.
        ///
        /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/transport(_:)``
        ///   (`.timeout` past a timeout or the deadline, `.connectionLost` for a
        ///   body cut short), ``NetworkError/Kind/responseTooLarge(limit:)`` past
        ///   the size limit, ``NetworkError/Kind/invalidURL(_:)``; `CancellationError`
        ///   when the calling task is cancelled.
        public func send(_ request: URLRequest) async throws -> NetworkResponse {
            try Task.checkCancellation()
            guard let url = request.url else { throw NetworkError(.invalidURL("(none)"), method: request.httpMethod) }
            let client = try self.client(for: url, method: request.httpMethod)
            let outgoing = try Self.outgoing(request, url: url)
            // No task sleeps beside each request for its deadline: a cancelled sleep keeps its timer
            // until it would have fired, some 0.7 KB a request for the deadline's two minutes.
            let deadline = ContinuousClock.now.advanced(by: configuration.deadline)
            do {
                return try await exchange(
                    outgoing, through: client, url: url, method: request.httpMethod, deadline: deadline)
            } catch {
                if Task.isCancelled { throw CancellationError() }
                throw Self.networkError(
                    for: error, url: url, method: request.httpMethod, limit: configuration.maxBodySize)
            }
        }

        /// Executes the request and collects the body up to the limit.
        ///
        /// A `Content-Length` over the limit fails before any byte of the body is
        /// read. Otherwise the body's chunks are kept as they arrive, and a chunk
        /// that would pass the limit fails the request before it is kept; the
        /// chunks are joined once, at their exact total size. No buffer ever grows
        /// by doubling, so a failing body holds at most the limit in memory and a
        /// body within it at most twice its size, briefly.
        ///
        /// The deadline covers the body too: async-http-client's own stops at the response head, so
        /// each chunk is checked against it, and a body that stops coming meets the idle timeout.
        private func exchange(
            _ outgoing: HTTPClientRequest, through client: AsyncHTTPClient.HTTPClient, url: URL, method: String?,
            deadline: ContinuousClock.Instant
        ) async throws -> NetworkResponse {
            let remaining = ContinuousClock.now.duration(to: deadline)
            let (seconds, attoseconds) = remaining.components
            let nanoseconds = max(
                0, seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000)
            let response = try await client.execute(outgoing, deadline: .now() + .nanoseconds(nanoseconds))
            let limit = configuration.maxBodySize
            let announced = response.headers.first(name: "content-length").flatMap { Int($0) }
            if let announced, announced > limit, !response.headers.contains(name: "content-encoding") {
                throw NIOTooManyBytesError(maxBytes: limit)
            }
            var chunks: [ByteBuffer] = []
            var size = 0
            for try await chunk in response.body {
                guard ContinuousClock.now < deadline else {
                    throw NetworkError(.transport(.timeout), url: url, method: method)
                }
                guard chunk.readableBytes <= limit - size else { throw NIOTooManyBytesError(maxBytes: limit) }
                size += chunk.readableBytes
                chunks.append(chunk)
            }
            var body = Data(capacity: size)
            for chunk in chunks { body.append(contentsOf: chunk.readableBytesView) }
            var headers: [String: String] = [:]
            var names: [String: String] = [:]
            for (name, value) in response.headers {
                let key = names[name.lowercased(), default: name]
                names[name.lowercased()] = key
                headers[key] = headers[key].map { "\($0), \(value)" } ?? value
            }
            return NetworkResponse(
                statusCode: Int(response.status.code), headers: headers, body: body, url: url)
        }

        /// The async-http-client request for a Foundation one: method, headers and body.
        private static func outgoing(_ request: URLRequest, url: URL) throws -> HTTPClientRequest {
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
            for (name, value) in request.allHTTPHeaderFields ?? [:] {
                outgoing.headers.add(name: name, value: value)
            }
            if !outgoing.headers.contains(name: "Accept-Encoding") {
                outgoing.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            }
            if let data = request.httpBody {
                outgoing.body = .bytes(ByteBuffer(bytes: data))
            } else if let stream = request.httpBodyStream {
                outgoing.body = .stream(InputStreamChunks(stream).sequence, length: .unknown)
            }
            return outgoing
        }

        /// The ``NetworkError`` for what async-http-client, NIO or the body collector threw.
        static func networkError(for error: any Error, url: URL, method: String?, limit: Int) -> any Error {
            if error is NetworkError || error is CancellationError { return error }
            let kind: NetworkError.Kind
            switch error {
            case is NIOTooManyBytesError:
                kind = .responseTooLarge(limit: limit)
            case NIOHTTPDecompression.DecompressionError.limit:
                kind = .responseTooLarge(limit: limit)
            case let error as HTTPClientError:
                switch error {
                case .readTimeout, .connectTimeout, .deadlineExceeded, .writeTimeout, .tlsHandshakeTimeout,
                    .getConnectionFromPoolTimeout:
                    kind = .transport(.timeout)
                case .remoteConnectionClosed, .bodyLengthMismatch:
                    kind = .transport(.connectionLost)
                case .cancelled:
                    kind = .transport(.cancelled)
                case .invalidURL, .emptyHost, .emptyScheme:
                    kind = .invalidURL(NetworkError.redacting(url))
                case .unsupportedScheme(url.scheme ?? ""):
                    kind = .invalidURL(NetworkError.redacting(url))
                default:
                    kind = .transport(.other(error.description))
                }
            case let error as NIOSSLError:
                kind = .transport(.tls(tlsFailure(error)))
            case let error as NIOSSLExtraError where error == .failedToValidateHostname:
                kind = .transport(.tls(.hostnameMismatch))
            case is HTTPParserError:
                // A body cut short of its Content-Length or its last chunk, or bytes that are not HTTP.
                kind = .transport(.connectionLost)
            case is NIOConnectionError, is ChannelError:
                kind = .transport(.cannotConnect)
            case let error as IOError:
                kind = Self.isRefusal(error.errnoCode) ? .transport(.cannotConnect) : .transport(.connectionLost)
            default:
                kind = .transport(.other(String(describing: error)))
            }
            return NetworkError(kind, url: url, method: method)
        }

        /// What a handshake failure means, in words that carry no build path (BoringSSL's errors name its source files).
        private static func tlsFailure(_ error: NIOSSLError) -> NetworkError.Kind.TLSFailure {
            let text = String(describing: error)
            if text.contains("CERTIFICATE_VERIFY_FAILED") { return .certificateNotTrusted }
            // BoringSSL's reason codes are upper-case words, as in WRONG_VERSION_NUMBER.
            let reasons = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
                .filter { $0.count > 3 && $0.contains("_") && $0 == $0.uppercased() }
            let reason = reasons.first.map { $0.lowercased().replacingOccurrences(of: "_", with: " ") }
            return .other(reason ?? "the server's TLS answer was not understood")
        }

        /// Why a file of trusted certificates was refused, without NIOSSL's internals.
        private static func trustFileReason(_ error: any Error) -> String {
            switch error {
            case TrustFileError.unreadable: "no such file, or it cannot be read"
            case TrustFileError.noCertificate: "it holds no PEM certificate"
            default: "it is not a file of PEM certificates"
            }
        }

        /// A file of trusted certificates that could not be read, or parsed to nothing.
        private enum TrustFileError: Error {
            case unreadable
            case noCertificate
        }

        private static func isRefusal(_ code: Int32) -> Bool {
            [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL].contains(code)
        }
    }

    extension TimeAmount {
        /// The same span in NIO's nanoseconds, saturating far beyond any timeout.
        fileprivate init(_ duration: Duration) {
            let (seconds, attoseconds) = duration.components
            let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            self = .nanoseconds(nanoseconds.overflow ? .max : nanoseconds.partialValue &+ attoseconds / 1_000_000_000)
        }
    }

    /// Reads a request body stream in chunks, for bodies streamed from a file.
    private final class InputStreamChunks: @unchecked Sendable {
        // The stream is read by one iteration at a time (async-http-client reads
        // a request body once, in order), so it is never touched concurrently.
        private let stream: InputStream
        private static let chunkSize = 64 << 10

        init(_ stream: InputStream) {
            self.stream = stream
        }

        /// The stream's bytes as buffers; opened on first read, closed at its end.
        var sequence: AsyncThrowingStream<ByteBuffer, any Error> {
            AsyncThrowingStream { [self] in try self.nextChunk() }
        }

        private func nextChunk() throws -> ByteBuffer? {
            if stream.streamStatus == .notOpen { stream.open() }
            var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 {
                stream.close()
                throw stream.streamError ?? NetworkError(.transport(.other("cannot read the request body")))
            }
            if count == 0 {
                stream.close()
                return nil
            }
            return ByteBuffer(bytes: buffer[..<count])
        }
    }

#endif
