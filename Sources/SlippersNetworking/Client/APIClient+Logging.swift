import Foundation
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Logs one request and its answer at `debug`: method, URL, status, elapsed time, redirect hop and headers.
    func logExchange(_ request: URLRequest, _ response: NetworkResponse, elapsed: Duration, hop: Int) {
        logger.debug(
            "HTTP exchange",
            metadata: [
                "method": "\(request.httpMethod ?? "GET")",
                "url": "\(Self.loggedURL(request.url))",
                "status": "\(response.statusCode)",
                "elapsed_ms": "\(elapsed.milliseconds)",
                "redirect_hop": "\(hop)",
                "request_headers": "\(Self.loggedHeaders(request.allHTTPHeaderFields ?? [:]))",
            ])
    }

    /// A URL for the log: secret-looking query values (`token`, `key`, `signature`…) and user info masked.
    static func loggedURL(_ url: URL?) -> String {
        url.map(NetworkError.redacting) ?? "(none)"
    }

    /// Headers for the log, sorted by name, credential values replaced by `<redacted>`.
    static func loggedHeaders(_ headers: [String: String]) -> String {
        headers.sorted { $0.key.lowercased() < $1.key.lowercased() }
            .map { name, value in "\(name): \(isCredential(header: name) ? "<redacted>" : value)" }
            .joined(separator: ", ")
    }

    /// Whether a header carries a credential: `Authorization`, `Cookie`, or a name that speaks of keys,
    /// tokens, secrets, passwords, sessions or signatures (`X-Api-Key`, `X-Auth-Token`…).
    package static func isCredential(header name: String) -> Bool {
        let name = name.lowercased()
        return credentialHeaders.contains(name) || credentialWords.contains { name.contains($0) }
    }

    private static let credentialHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie",
    ]
    private static let credentialWords = ["key", "token", "secret", "password", "session", "signature", "auth"]
}

extension Duration {
    /// The duration in whole milliseconds, for logs.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
