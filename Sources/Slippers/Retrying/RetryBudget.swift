/// Keeps retrying an operation that fails with transient errors, for up to a bound of time.
///
/// A single request gives up after a few attempts; a batch job that is making
/// progress should not lose its run to one unlucky stretch. A budget retries
/// the operation after each transient failure (see ``TransientError``), with
/// exponential backoff and jitter, until it succeeds, fails with an error
/// that is not transient, or ``duration`` has passed since its first failure.
/// The budget is per call: every call of ``run(_:)`` starts afresh.
///
/// For example, a page retried for up to five minutes:
///
/// ```swift
/// let budget = RetryBudget(duration: .seconds(300))
/// let page = try await budget.run { try await source.fetch(request) }
/// ```
public struct RetryBudget: Sendable, Equatable {
    /// How long after the first failure the operation is still tried again; zero means never.
    var duration: Duration
    /// The wait before the first retry, before jitter.
    public var baseDelay: Duration
    /// The longest wait between two tries, before jitter.
    var maxDelay: Duration

    /// Creates a budget.
    ///
    /// - parameter duration: How long after the first failure the operation is still tried again.
    /// - parameter baseDelay: The wait before the first retry; it doubles with each retry.
    /// - parameter maxDelay: The longest wait between two tries.
    public init(duration: Duration, baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(30)) {
        self.duration = max(duration, .zero)
        self.baseDelay = max(baseDelay, .zero)
        self.maxDelay = max(maxDelay, self.baseDelay)
    }

    /// No retry: the first failure is final.
    public static let none = RetryBudget(duration: .zero)

    /// Runs `operation`, retrying it after transient failures while the budget lasts.
    ///
    /// - returns: What `operation` returned.
    /// - throws: The last error of `operation` when it is not transient or the
    ///   budget is spent; `CancellationError` when the task is cancelled while waiting.
    public func run<T>(_ operation: () async throws -> T) async throws -> T {
        var retries = 0
        return try await run(retries: &retries, operation)
    }

    /// Runs `operation`, retrying it after transient failures while the budget lasts, and counts the retries.
    ///
    /// - parameter retries: Incremented before each wait.
    /// - parameter onRetry: Called before each wait with the failure and the wait, for logging.
    /// - returns: What `operation` returned.
    /// - throws: The last error of `operation` when it is not transient or the
    ///   budget is spent; `CancellationError` when the task is cancelled while waiting.
    public func run<T>(
        retries: inout Int,
        onRetry: (_ error: any Error, _ wait: Duration) -> Void = { _, _ in },
        _ operation: () async throws -> T
    ) async throws -> T {
        let clock = ContinuousClock()
        var firstFailure: ContinuousClock.Instant?
        var attempt = 0
        while true {
            do {
                return try await operation()
            } catch {
                guard !(error is CancellationError), (error as? any TransientError)?.isTransient == true else {
                    throw error
                }
                let start = firstFailure ?? clock.now
                firstFailure = start
                let elapsed = start.duration(to: clock.now)
                guard elapsed < duration else { throw error }
                let wait = min(delay(afterRetries: attempt), duration - elapsed)
                attempt += 1
                retries += 1
                onRetry(error, wait)
                try await Task.sleep(for: wait)
            }
        }
    }

    /// The wait after `retries` earlier retries: between half and all of `baseDelay × 2ʳ`, at most `maxDelay`.
    func delay(afterRetries retries: Int) -> Duration {
        Backoff(initial: baseDelay, maximum: maxDelay, jitter: 0.5).delay(afterRetries: retries)
    }
}
