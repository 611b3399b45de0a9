import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Decorates requests with credentials, and renews them when the server answers `401`.
///
/// ``APIClient`` calls ``authorize(_:)`` before every attempt. On a `401`
/// it calls ``renewCredentials()`` once and sends the request again, once; a second
/// `401` is the caller's error.
public protocol HTTPAuthenticator: Sendable {
    /// Returns the request with its credentials, such as an `Authorization` header.
    func authorize(_ request: URLRequest) async throws -> URLRequest

    /// Renews the credentials after the server rejected them.
    ///
    /// - throws: Whatever renewing fails with; the request then fails with it.
    func renewCredentials() async throws
}
