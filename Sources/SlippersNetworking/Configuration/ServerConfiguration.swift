import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where an API lives: scheme, host, port and API route, plus whether to stub it.
///
/// Endpoints name only their path, so switching between production, staging
/// and a local test server changes one value, not the endpoints.
///
/// For example:
///
/// ```swift
/// let production = ServerConfiguration(host: "api.example.com", apiRoute: "v2")
/// let local = ServerConfiguration(scheme: "http", host: "127.0.0.1", port: 8080, apiRoute: "v2")
/// let offline = production.stubbing()
/// ```
public struct ServerConfiguration: Hashable, Sendable {
    /// The URL scheme, `https` or `http`.
    var scheme: String
    /// The host name or address.
    var host: String
    /// The port, or `nil` for the scheme's default.
    package var port: Int?
    /// The path prefix of every endpoint, such as `api/v2`; empty for none.
    var apiRoute: String
    /// Whether every endpoint answers with its stubbed response instead of reaching the network.
    public var shouldStub: Bool

    /// Creates a configuration.
    public init(
        scheme: String = "https",
        host: String,
        port: Int? = nil,
        apiRoute: String = "",
        shouldStub: Bool = false
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.apiRoute = apiRoute
        self.shouldStub = shouldStub
    }

    /// Creates a configuration from a base URL such as `http://127.0.0.1:8080/api`, or `nil` without a host.
    public init?(baseURL: URL, shouldStub: Bool = false) {
        guard let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            let host = components.host, !host.isEmpty
        else { return nil }
        self.init(
            scheme: components.scheme ?? "https",
            host: host,
            port: components.port,
            apiRoute: components.path,
            shouldStub: shouldStub
        )
    }

    /// The same configuration with stubbing turned on.
    public func stubbing(_ shouldStub: Bool = true) -> ServerConfiguration {
        var copy = self
        copy.shouldStub = shouldStub
        return copy
    }

    /// The URL of the API root, such as `https://api.example.com/v2`, or `nil` when the parts do not make a URL.
    package var baseURL: URL? {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = port
        let route = Self.trimmingSlashes(apiRoute)
        components.path = route.isEmpty ? "" : "/" + route
        return components.url
    }

    /// The absolute URL of a path (and query items) under the API route.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidURL(_:)``
    ///   when the parts do not make a URL.
    public func url(path: String, queryItems: [URLQueryItem] = []) throws -> URL {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = port
        let parts = [Self.trimmingSlashes(apiRoute), Self.trimmingSlashes(path)].filter { !$0.isEmpty }
        components.path = "/" + parts.joined(separator: "/")
        if !queryItems.isEmpty { components.queryItems = queryItems }
        guard let url = components.url else {
            throw NetworkError(.invalidURL("\(scheme)://\(host)/\(parts.joined(separator: "/"))"))
        }
        return url
    }

    private static func trimmingSlashes(_ text: String) -> String {
        var text = Substring(text)
        while text.hasPrefix("/") { text = text.dropFirst() }
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
