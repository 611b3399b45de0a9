import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one error type of SlippersNetworking.
///
/// Its ``kind`` separates failures of the transport (no connection, timeout,
/// cancellation), HTTP statuses of 400 and above, and responses that cannot be
/// decoded. Its ``description`` is one line naming the request; it never
/// contains a header, and secret-looking query values are masked.
///
/// Cancelling the task that makes a request throws `CancellationError`, as is,
/// rather than this type; ``Kind/Transport/cancelled`` is a cancellation that
/// did not come from the task (the system cancelled the request).
public struct NetworkError: TransientError, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var kind: Kind
    /// The URL of the request, with secret-looking query values masked.
    public var url: String?
    /// The HTTP method of the request, when known.
    public var method: String?
    /// The delay the server asked for with `Retry-After`, for `429` and `503` answers.
    package var retryAfter: Duration?

    /// Creates an error.
    public init(_ kind: Kind, url: URL? = nil, method: String? = nil, retryAfter: Duration? = nil) {
        self.kind = kind
        self.url = url.map { Self.redacting($0).shortenedForErrors }
        self.method = method
        self.retryAfter = retryAfter
    }

    /// What went wrong with a request.
    public enum Kind: Sendable, Equatable {
        /// No HTTP response arrived.
        case transport(Transport)
        /// The server answered with a status of 400 or more; the snippet is the start of the body.
        case http(status: Int, bodySnippet: String)
        /// The response could not be decoded: where in the JSON, why, and the start of the body.
        case decoding(path: String, reason: String, bodySnippet: String)
        /// A page's next token or URL is the one that fetched it, so paging would loop.
        case notAdvancing(token: String)
        /// A URL could not be built or parsed.
        case invalidURL(String)
        /// A page token does not fit the pagination style (such as a page number that is not a number).
        case invalidToken(String)
        /// Stubbing is on, but the endpoint has no stubbed response.
        case missingStub(path: String)
        /// The response body, as sent or once decompressed, is larger than the transport's limit in bytes.
        ///
        /// Not transient: the same request brings the same body again.
        case responseTooLarge(limit: Int)
        /// The origin policy refused to send a request: a next page or redirect
        /// to an origin that is not allowed, a step down from `https` to `http`,
        /// or a URL that is not `http` or `https`.
        case originRefused(OriginPolicy.Refusal)
        /// Following the server's redirects failed: a loop, too many, or a redirect without a `Location`.
        case redirectFailed(RedirectFailure)
        /// The body ends before its JSON does: the response was cut short. Transient.
        case truncatedBody(bodySnippet: String)
        /// A GraphQL response carried `errors` (even with status 200 and partial `data`): the first
        /// one's message and path (`repository.issues`), and how many there were. Not transient.
        case graphQL(message: String, path: String?, errorCount: Int)
        /// The JSON body or GraphQL variables of a posted style are not a JSON object.
        case invalidRequestBody(reason: String)
        /// The server's rate limit is spent for longer than the client waits
        /// (``RateLimiter/maxWait``, an hour by default): the wait it asks for. Not transient.
        case rateLimited(wait: Duration)

        /// Why following redirects failed.
        public enum RedirectFailure: Sendable, Equatable {
            /// A redirect led back to a URL already visited while following this request.
            case loop
            /// More redirects than the client follows in a row.
            case tooMany(limit: Int)
            /// A redirect status came without a `Location` header.
            case missingLocation(status: Int)
        }

        /// A failure before any HTTP response arrived.
        public enum Transport: Sendable, Equatable {
            /// The host could not be reached: refused connection, unknown host, no network.
            case cannotConnect
            /// The request took too long.
            case timeout
            /// The request was cancelled by the system (not by the calling task).
            case cancelled
            /// The connection closed before the whole response arrived.
            case connectionLost
            /// The TLS handshake failed: the server's certificate was not accepted. Permanent.
            case tls(TLSFailure)
            /// Another transport failure, described.
            case other(String)
        }

        /// Why a TLS handshake failed.
        public enum TLSFailure: Sendable, Equatable {
            /// The certificate chain was refused: self-signed, signed by an authority not
            /// trusted here, expired, or not valid yet.
            case certificateNotTrusted
            /// The certificate does not name the host the request was sent to.
            case hostnameMismatch
            /// The file of trusted certificates could not be read (a path, and why).
            case unreadableTrustedCertificates(path: String, reason: String)
            /// Another handshake failure, described.
            case other(String)
        }
    }

    /// The HTTP status, when the server answered with one of 400 or more.
    public var status: Int? {
        if case .http(let status, _) = kind { return status }
        return nil
    }

    /// Whether trying the same request again may succeed: transport failures
    /// other than cancellation, a body cut short, `408`, `429` and `5xx`.
    public var isTransient: Bool {
        switch kind {
        case .transport(.cancelled), .transport(.tls): false
        case .transport, .truncatedBody: true
        case .http(let status, _): status == 408 || status == 429 || (500...599).contains(status)
        default: false
        }
    }

    /// One line: what failed, for which request, and what the server said.
    public var description: String {
        let target = [method, url].compactMap { $0 }.joined(separator: " ")
        let suffix = target.isEmpty ? "" : " (\(target))"
        switch kind {
        case .transport(.cannotConnect):
            return "Cannot connect to the server\(suffix); check the address and that it is running"
        case .transport(.timeout):
            return "The request timed out\(suffix)"
        case .transport(.cancelled):
            return "The request was cancelled\(suffix)"
        case .transport(.connectionLost):
            return "The connection was lost before the response was complete\(suffix)"
        case .transport(.tls(.certificateNotTrusted)):
            return "The server's TLS certificate was not accepted\(suffix): it is self-signed, signed by an "
                + "authority not trusted here, expired or not valid yet; to trust a private CA, give its "
                + "certificate with --cacert FILE (certificateAuthorityFile)"
        case .transport(.tls(.hostnameMismatch)):
            return "The server's TLS certificate does not name the host\(suffix); use a name the certificate lists"
        case .transport(.tls(.unreadableTrustedCertificates(let path, let reason))):
            return "Cannot read trusted certificates from \(Self.oneLine(path)): \(Self.oneLine(reason))"
        case .transport(.tls(.other(let message))):
            return "The TLS handshake failed\(suffix): \(Self.oneLine(message))"
        case .transport(.other(let message)):
            return "The request failed\(suffix): \(Self.oneLine(message))"
        case .http(let status, let snippet):
            let shown = Self.htmlHeading(snippet) ?? snippet
            let body = shown.isEmpty ? "" : ": \(Self.oneLine(shown))"
            return "HTTP \(status)\(suffix)\(body)"
        case .decoding(let path, let reason, let snippet):
            let at = path.isEmpty ? "" : " at \(path)"
            return
                "Cannot decode the response\(suffix)\(at): \(Self.oneLine(reason)); body starts \(Self.oneLine(snippet))"
        case .notAdvancing(let token):
            return
                "The server's next page is the current one (\(Self.oneLine(token.shortenedForErrors))), stopping instead of looping\(suffix)"
        case .invalidURL(let text):
            return "Invalid URL \(Self.oneLine(text.shortenedForErrors))"
        case .invalidToken(let token):
            return "Page token \"\(Self.oneLine(token.shortenedForErrors))\" does not fit the pagination style\(suffix)"
        case .missingStub(let path):
            return "Stubbing is on but the endpoint \(path) has no stubbed response"
        case .responseTooLarge(let limit):
            return
                "The response is larger than the limit of \(Self.byteCount(limit))\(suffix); "
                + "raise the limit with --max-body-size (maxBodySize) if it is expected"
        case .originRefused(.notAllowed(let origin)):
            return "Refused to follow the list to another origin, \(origin)\(suffix); allow it with "
                + "--allow-origin \(origin) (OriginPolicy.allowed), or with credentials with --trust-origin"
        case .originRefused(.downgrade(let origin)):
            return "Refused to follow from https down to http, \(origin)\(suffix)"
        case .originRefused(.notHTTP(let scheme)):
            let name = scheme.isEmpty ? "no scheme" : "scheme \"\(Self.oneLine(scheme.shortenedForErrors))\""
            return "Refused to follow a URL that is not http or https (\(name))\(suffix)"
        case .redirectFailed(.loop):
            return "The server's redirects loop\(suffix)"
        case .redirectFailed(.tooMany(let limit)):
            return "More than \(limit) redirects in a row\(suffix)"
        case .redirectFailed(.missingLocation(let status)):
            return "HTTP \(status) redirect without a Location header\(suffix)"
        case .truncatedBody(let snippet):
            return "The response was cut short before its JSON ended\(suffix); body starts \(Self.oneLine(snippet))"
        case .graphQL(let message, let path, let count):
            let at = path.map { " at \(Self.oneLine($0.shortenedForErrors))" } ?? ""
            let others = count > 1 ? " (and \(count - 1) more)" : ""
            return "GraphQL error\(at): \(Self.oneLine(message.shortenedForErrors))\(others)\(suffix)"
        case .invalidRequestBody(let reason):
            return "The request body is invalid\(suffix): \(Self.oneLine(reason))"
        case .rateLimited(let wait):
            return "The server's rate limit is spent for \(Self.roughDuration(wait)) more\(suffix), longer than "
                + "the client waits for it; try again after it resets"
        }
    }
}

extension NetworkError {
    /// The most characters of a body kept in an error.
    package static let snippetLength = 200

    /// The start of a body as text, at most ``snippetLength`` characters.
    static func snippet(of body: Data) -> String {
        let prefix = body.prefix(snippetLength * 4)
        let text = String(decoding: prefix, as: UTF8.self)
        return text.count > snippetLength ? String(text.prefix(snippetLength)) + "…" : text
    }

    /// Maps a `URLError` to a transport failure (or to ``Kind/invalidURL(_:)`` for a URL the system refused).
    public init(urlError: URLError, url: URL?, method: String? = nil) {
        if urlError.code == .badURL || urlError.code == .unsupportedURL {
            self.init(.invalidURL((url ?? urlError.failingURL).map(Self.redacting) ?? "?"), method: method)
            return
        }
        let transport: Kind.Transport
        switch urlError.code {
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed,
            .internationalRoamingOff, .dataNotAllowed, .secureConnectionFailed:
            transport = .cannotConnect
        case .timedOut:
            transport = .timeout
        case .cancelled:
            transport = .cancelled
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource:
            transport = .connectionLost
        default:
            transport = .other("URL error \(urlError.code.rawValue)")
        }
        self.init(.transport(transport), url: url ?? urlError.failingURL, method: method)
    }

    /// The error of a response whose status is 400 or more.
    public init(response: NetworkResponse, method: String? = nil) {
        self.init(
            .http(status: response.statusCode, bodySnippet: Self.snippet(of: response.body)),
            url: response.url, method: method, retryAfter: response.retryAfter)
    }

    /// The error of a body that a `Decodable` type or the JSON scanner rejected.
    public init(decoding error: any Error, body: Data, url: URL?) {
        let path: String
        let reason: String
        switch error {
        case let error as DecodingError:
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                path = Self.path(context.codingPath)
                if case .keyNotFound(let key, _) = error {
                    reason = "missing key \"\(key.stringValue)\""
                } else {
                    reason = context.debugDescription
                }
            @unknown default:
                path = ""
                reason = String(describing: error)
            }
        case let error as JSONScanner.ScanError:
            if error.isTruncated {
                self.init(.truncatedBody(bodySnippet: Self.snippet(of: body)), url: url)
                return
            }
            path = error.path
            reason = error.reason
        default:
            path = ""
            reason = String(describing: error)
        }
        self.init(.decoding(path: path, reason: reason, bodySnippet: Self.snippet(of: body)), url: url)
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            .joined()
            .trimmingPrefix(".")
            .description
    }

    private static let secretNames = ["token", "key", "secret", "password", "auth", "signature", "session", "sig"]

    /// The URL as text with the values of secret-looking query items (token, key, secret…) masked.
    package static func redacting(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.user = nil
        components.password = nil
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                let name = item.name.lowercased()
                guard secretNames.contains(where: { name.contains($0) }) else { return item }
                return URLQueryItem(name: item.name, value: "***")
            }
        }
        return components.string ?? url.absoluteString
    }

    /// A duration for people: `42 s`, `12 min`, `2.5 h`.
    static func roughDuration(_ duration: Duration) -> String {
        let seconds = duration.timeInterval
        if seconds >= 3600 { return String(format: "%.1f h", seconds / 3600) }
        if seconds >= 60 { return "\(Int((seconds / 60).rounded(.up))) min" }
        return "\(Int(seconds.rounded(.up))) s"
    }

    /// A byte count for people: `64 MB`, `1.5 GB`, `512 bytes` (powers of 1024, as `--max-body-size` reads them).
    static func byteCount(_ bytes: Int) -> String {
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = -1
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        guard unit >= 0 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(text) \(units[unit])"
    }

    /// The title (else the first heading) of a body that is an HTML page, such as a proxy's error
    /// page: its markup says nothing to a reader of one line. `nil` for a body that is not HTML;
    /// an empty text for a page whose start holds neither.
    static func htmlHeading(_ snippet: String) -> String? {
        let start = snippet.drop(while: \.isWhitespace).prefix(15).lowercased()
        guard start.hasPrefix("<!doctype html") || start.hasPrefix("<html") else { return nil }
        for tag in ["title", "h1"] {
            guard let open = snippet.range(of: "<\(tag)", options: .caseInsensitive),
                let close = snippet[open.upperBound...].firstIndex(of: ">"),
                let end = snippet[close...].range(of: "</\(tag)>", options: .caseInsensitive)
            else { continue }
            let text = snippet[snippet.index(after: close)..<end.lowerBound]
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if !text.isEmpty { return text }
        }
        return ""
    }

    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
