import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where requests may go besides the origin a list or an API starts at, and which of them get credentials.
///
/// The rule is curl's: the origin the caller named (the scheme, host and port of
/// a list's first URL, or of the ``ServerConfiguration``) is the *home* origin.
/// Every request to it carries the caller's headers and credentials. A next
/// page or a redirect to another origin is refused unless that origin is
/// ``allowed``; an allowed origin gets no credentials (no header the caller
/// set, no `Authorization`, no `Cookie`, nothing from an authenticator) unless
/// it is also ``trusted``, like curl's `--location-trusted`. A step from `https`
/// down to `http` is refused whatever the lists say.
///
/// For example, pages served from a CDN that needs no token:
///
/// ```swift
/// var client = APIClient(configuration: configuration)
/// client.originPolicy = OriginPolicy(allowed: [Origin(parsing: "https://cdn.example.com")!])
/// ```
public struct OriginPolicy: Hashable, Sendable {
    /// Origins that may be followed to, without credentials unless also trusted.
    var allowed: Set<Origin>
    /// Origins that may be followed to with the caller's headers and credentials; trusted implies allowed.
    var trusted: Set<Origin>

    /// Creates a policy.
    public init(allowed: Set<Origin> = [], trusted: Set<Origin> = []) {
        self.allowed = allowed
        self.trusted = trusted
    }

    /// Only the home origin: every other one is refused.
    public static let sameOrigin = OriginPolicy()

    /// What the policy says of a request to `url` on a list or API whose home is `home`.
    package func decision(for url: URL, home: Origin) -> Decision {
        guard let origin = Origin(url) else { return .refused(.notHTTP(scheme: url.scheme ?? "")) }
        guard origin.scheme == "http" || origin.scheme == "https" else {
            return .refused(.notHTTP(scheme: origin.scheme))
        }
        if home.isSecure, !origin.isSecure { return .refused(.downgrade(origin)) }
        if origin == home || trusted.contains(origin) { return .withCredentials }
        if allowed.contains(origin) { return .withoutCredentials }
        return .refused(.notAllowed(origin))
    }

    /// Whether and how a request may be sent.
    package enum Decision: Hashable, Sendable {
        /// Send it with the caller's headers and credentials: the home origin or a trusted one.
        case withCredentials
        /// Send it without the caller's headers and credentials: an allowed origin.
        case withoutCredentials
        /// Do not send it.
        case refused(Refusal)
    }

    /// Why a request was refused.
    public enum Refusal: Hashable, Sendable {
        /// The origin is neither the home origin nor allowed.
        case notAllowed(Origin)
        /// The request would go from `https` down to `http`.
        case downgrade(Origin)
        /// The URL is not an `http` or `https` URL.
        case notHTTP(scheme: String)
    }
}

extension OriginPolicy {
    /// The request as it may be sent to another origin: without the headers that carry credentials.
    ///
    /// Only headers the client itself sets to describe the request are kept
    /// (`Accept`, `Accept-Encoding`, `Content-Type`, `User-Agent` and the
    /// conditional `If-None-Match` / `If-Modified-Since`); every header the
    /// caller set is dropped, `Authorization` and `Cookie` included.
    static func strippingCredentials(_ request: URLRequest) -> URLRequest {
        var stripped = request
        for name in (request.allHTTPHeaderFields ?? [:]).keys
        where !keptHeaders.contains(name.lowercased()) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    private static let keptHeaders: Set<String> = [
        "accept", "accept-encoding", "content-type", "content-length", "user-agent", "if-none-match",
        "if-modified-since",
    ]
}
