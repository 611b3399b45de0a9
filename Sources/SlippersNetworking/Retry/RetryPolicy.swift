import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How many times, and how long apart, ``HTTPClient`` tries a request again.
///
/// Transport failures (except cancellation), `408`, `429` and `5xx` answers
/// are retried, up to ``maxAttempts`` attempts in all, after an exponential
/// backoff with jitter: attempt *n* waits `baseDelay × 2ⁿ⁻¹`, at most
/// ``maxDelay``, less a random share of up to ``jitter`` of it. A
/// `Retry-After` header is honoured as the wait when it is longer; one longer
/// than ``maxRetryAfter`` ends the retries. Other `4xx` answers are never
/// retried, and cancelling the task stops the waiting at once.
///
/// For example, quick retries for tests:
///
/// ```swift
/// let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20))
/// ```
public struct RetryPolicy: Sendable, Equatable {
    /// The most attempts of one request, the first included; 1 means no retry.
    public var maxAttempts: Int
    /// The wait before the first retry.
    public var baseDelay: Duration
    /// The longest wait between two attempts, before jitter.
    public var maxDelay: Duration
    /// The largest share (0…1) of a wait that is randomly taken off it, so that clients do not retry in step.
    public var jitter: Double
    /// The longest `Retry-After` the client waits for; a longer one fails the request at once.
    public var maxRetryAfter: Duration

    /// Creates a policy.
    ///
    /// - precondition: `maxAttempts >= 1`.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(250),
        maxDelay: Duration = .seconds(10),
        jitter: Double = 0.2,
        maxRetryAfter: Duration = .seconds(60)
    ) {
        precondition(maxAttempts >= 1, "maxAttempts must be at least 1")
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
        self.maxRetryAfter = maxRetryAfter
    }

    /// Three attempts, 250 ms apart at first, doubling up to 10 s.
    public static let `default` = RetryPolicy()

    /// A single attempt: no retry.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The wait before attempt `attempt + 1` after `error`, or `nil` when the request should not be tried again.
    ///
    /// - parameter attempt: The number of attempts made so far, from 1.
    public func delay(afterAttempt attempt: Int, error: NetworkError) -> Duration? {
        guard attempt < maxAttempts, error.isTransient else { return nil }
        let exponent = min(max(attempt - 1, 0), 30)
        var wait = min(baseDelay * (1 << exponent), maxDelay)
        if jitter > 0 { wait = wait * (1 - Double.random(in: 0...jitter)) }
        if let retryAfter = error.retryAfter {
            guard retryAfter <= maxRetryAfter else { return nil }
            wait = max(wait, retryAfter)
        }
        return wait
    }
}
