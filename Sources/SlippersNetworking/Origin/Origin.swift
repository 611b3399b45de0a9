import Foundation

/// The scheme, host and port of a URL: what the origin policy compares.
///
/// Hosts compare without regard to case, and a missing port is the scheme's
/// default, so `https://API.example.com/a` and `https://api.example.com:443/b`
/// are one origin.
///
/// For example:
///
/// ```swift
/// let origin = Origin(URL(string: "https://api.example.com/posts?page=2")!)
/// print(origin)  // https://api.example.com
/// ```
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// The scheme, lowercased: `http` or `https` for the URLs the client follows.
    public var scheme: String
    /// The host, lowercased, without brackets for IPv6 addresses.
    public var host: String
    /// The port, the scheme's default when the URL gives none.
    public var port: Int

    /// The origin of a URL, or `nil` when it has no scheme or no host.
    public init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.init(scheme: scheme, host: host, port: components.port)
    }

    /// Parses `scheme://host[:port]` (a trailing `/` is accepted), such as `https://cdn.example.com`.
    ///
    /// - returns: `nil` when the text is not of that form.
    public init?(parsing text: String) {
        guard let url = URL(string: text), let origin = Origin(url),
            url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil
        else { return nil }
        self = origin
    }

    /// Creates an origin; a `nil` port is the scheme's default.
    public init(scheme: String, host: String, port: Int? = nil) {
        let scheme = scheme.lowercased()
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        self.host = host
        self.port = port ?? Self.defaultPort(for: scheme) ?? 0
    }

    /// Whether the scheme is `https`.
    public var isSecure: Bool { scheme == "https" }

    /// `scheme://host`, with `:port` when it is not the scheme's default.
    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        let port = Self.defaultPort(for: scheme) == self.port ? "" : ":\(self.port)"
        return "\(scheme)://\(host)\(port)"
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
