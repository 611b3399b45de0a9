import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How many times, and how long apart, ``APIClient`` tries a request again.
///
/// Transient failures are retried: transport failures (a refused or dropped
/// connection, a timeout, a body short of its `Content-Length`) except
/// cancellation, a body whose JSON was cut short, `408`, `429` and `5xx`
/// answers. They are tried up to ``maxAttempts`` times in all, after an
/// exponential backoff with jitter: attempt *n* waits up to
/// `baseDelay × 2ⁿ⁻¹`, at most ``maxDelay``, less a random share of up to
/// ``jitter`` of it (with the default jitter of 1, "full jitter": anywhere
/// between zero and that ceiling). A `Retry-After` header is honoured as the
/// wait when it is longer; one longer than ``maxRetryAfter`` ends the retries.
/// Other `4xx` answers, a complete body that is not the expected JSON and a
/// refused origin are never retried, and cancelling the task stops the waiting at once.
/// A `429` or `403` that a rate limit explains (a `Retry-After`, or a spent budget) is not a
/// retry: the client waits for the limit (see ``RateLimiter``) and uses none of the attempts,
/// unless the server names no wait to come.
///
/// The defaults: 5 attempts, waits of at most 0.5 s, 1 s, 2 s and 4 s
/// (at most 7.5 s in all before jitter), `Retry-After` up to 60 s.
///
/// For example, quick retries for tests:
///
/// ```swift
/// let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20))
/// ```
public struct RetryPolicy: Sendable, Equatable {
    /// The most attempts of one request, the first included; 1 means no retry.
    package var maxAttempts: Int
    /// The wait before the first retry.
    public var baseDelay: Duration
    /// The longest wait between two attempts, before jitter.
    var maxDelay: Duration
    /// The largest share (0…1) of a wait that is randomly taken off it, so that clients do not retry in step.
    package var jitter: Double
    /// The longest `Retry-After` the client waits for; a longer one fails the request at once.
    var maxRetryAfter: Duration

    /// Creates a policy.
    ///
    /// - precondition: `maxAttempts >= 1`.
    public init(
        maxAttempts: Int = 5,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(10),
        jitter: Double = 1,
        maxRetryAfter: Duration = .seconds(60)
    ) {
        precondition(maxAttempts >= 1, "maxAttempts must be at least 1")
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
        self.maxRetryAfter = maxRetryAfter
    }

    /// The waits between attempts: from ``baseDelay``, doubling up to ``maxDelay``, with ``jitter``.
    package var backoff: Backoff { Backoff(initial: baseDelay, maximum: maxDelay, jitter: jitter) }

    /// Five attempts, up to 0.5 s apart at first, doubling up to 10 s, with full jitter.
    public static let `default` = RetryPolicy()

    /// A single attempt: no retry.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The wait before attempt `attempt + 1` after `error`, or `nil` when the request should not be tried again.
    ///
    /// - parameter attempt: The number of attempts made so far, from 1.
    package func delay(afterAttempt attempt: Int, error: NetworkError) -> Duration? {
        guard attempt < maxAttempts, error.isTransient else { return nil }
        var wait = backoff.delay(afterRetries: attempt - 1)
        if let retryAfter = error.retryAfter {
            guard retryAfter <= maxRetryAfter else { return nil }
            wait = max(wait, retryAfter)
        }
        return wait
    }
}
