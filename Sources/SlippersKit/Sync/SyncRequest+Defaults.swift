import Foundation
import Slippers
import SlippersNetworking
import SlippersStorage

extension SyncRequest.Network {
    /// The retries of one request when ``retries`` is not given: 4 (5 attempts).
    public static let defaultRetries = 4
    /// The first wait between retries, in seconds, when ``retryDelay`` is not given.
    public static let defaultRetryDelay = 0.5
    /// How long a failing page is retried, in seconds, when ``retryFor`` is not given: 5 minutes.
    public static let defaultRetryFor = 300.0
    /// The pages asked for at once when ``concurrency`` is not given.
    public static let defaultConcurrency = 6

    /// How each request is retried: ``retries`` more attempts, waits from ``retryDelay`` doubling up to 10 s.
    public var requestRetryPolicy: RetryPolicy {
        let delay = retryDelay ?? Self.defaultRetryDelay
        return RetryPolicy(
            maxAttempts: (retries ?? Self.defaultRetries) + 1, baseDelay: .seconds(delay),
            maxDelay: .seconds(max(10, delay)))
    }

    /// The budget of a failing page beyond its request's own retries: ``retryFor`` seconds.
    var pageRetryBudget: RetryBudget {
        let delay = retryDelay ?? Self.defaultRetryDelay
        return RetryBudget(
            duration: .seconds(retryFor ?? Self.defaultRetryFor), baseDelay: .seconds(delay * 2),
            maxDelay: .seconds(max(30, delay)))
    }

    /// The origins requests may go to besides the list's own, and those trusted with its credentials.
    ///
    /// - throws: ``SyncFailure/invalidOrigin(_:)`` for a value that is not an http or https origin.
    func originPolicy() throws -> OriginPolicy {
        func parsed(_ texts: [String]) throws -> Set<Origin> {
            try Set(
                texts.map { text in
                    guard let origin = Origin(parsing: text), origin.scheme == "http" || origin.scheme == "https"
                    else { throw SyncFailure.invalidOrigin(text) }
                    return origin
                })
        }
        let trusted = try parsed(trustedOrigins)
        return OriginPolicy(allowed: try parsed(allowedOrigins).union(trusted), trusted: trusted)
    }

    /// The transport these settings describe: the library's shared one when none is given, else
    /// one made once per configuration in the process (see `APIClient.transport(for:)`).
    public func transport(environment: [String: String] = ProcessInfo.processInfo.environment) -> any HTTPTransport {
        APIClient.transport(
            connectTimeout: connectTimeout, idleTimeout: idleTimeout, deadline: deadline, maxBodySize: maxBodySize,
            caCertificates: caCertificates, environment: environment)
    }
}
