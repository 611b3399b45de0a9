import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends `Authorization: Bearer <token>` and renews the token with a closure on `401`.
///
/// Concurrent renewals are coalesced: requests rejected at the same time
/// wait for one renewal.
///
/// For example:
///
/// ```swift
/// let auth = BearerTokenAuthenticator(token: savedToken) {
///     try await authService.renewToken()
/// }
/// let client = APIClient(configuration: .init(host: "api.example.com"), options: .init(authenticator: auth))
/// ```
public actor BearerTokenAuthenticator: HTTPAuthenticator {
    /// The current token; never printed by errors.
    public private(set) var token: String
    /// The number of times the token was renewed.
    package private(set) var renewalCount = 0
    private let renew: @Sendable () async throws -> String
    private var renewal: Task<String, any Error>?

    /// Creates an authenticator with a first token and a way to get a new one.
    public init(token: String, renew: @escaping @Sendable () async throws -> String) {
        self.token = token
        self.renew = renew
    }

    /// Adds the bearer token to the request.
    public func authorize(_ request: URLRequest) async throws -> URLRequest {
        if let renewal { _ = try await renewal.value }
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// Gets a new token from the renewal closure, sharing a renewal already under way.
    public func renewCredentials() async throws {
        if let renewal {
            _ = try await renewal.value
            return
        }
        let task = Task { try await renew() }
        renewal = task
        defer { renewal = nil }
        token = try await task.value
        renewalCount += 1
    }
}
