/// Exponential backoff: waits that double from a first one up to a ceiling, less a random share.
///
/// The one rule behind every wait of the package: a request's retries
/// (`RetryPolicy`), a page's retries under a ``RetryBudget``, a pager's pause
/// after a failed load, and a write's wait for a busy database.
///
/// For example, full jitter from half a second, doubling up to ten:
///
/// ```swift
/// let backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(10), jitter: 1)
/// backoff.ceiling(afterRetries: 2)    // 2 seconds
/// backoff.delay(afterRetries: 2)      // between 0 and 2 seconds
/// ```
public struct Backoff: Hashable, Sendable {
    /// The first wait, before jitter.
    package var initial: Duration
    /// The longest wait, before jitter.
    package var maximum: Duration
    /// The largest share (0…1) of a wait taken off it at random: 0 waits the ceiling, 1 anywhere below it.
    package var jitter: Double

    /// Creates a backoff; negative durations count as zero, and the maximum is at least the initial wait.
    public init(initial: Duration, maximum: Duration, jitter: Double = 0) {
        self.initial = max(initial, .zero)
        self.maximum = max(maximum, self.initial)
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The wait after `retries` earlier waits, before jitter: `initial × 2^retries`, at most ``maximum``.
    public func ceiling(afterRetries retries: Int) -> Duration {
        min(initial * (1 << min(max(retries, 0), 30)), maximum)
    }

    /// The wait after `retries` earlier waits: the ceiling less a random share of up to ``jitter`` of it.
    public func delay(afterRetries retries: Int) -> Duration {
        let ceiling = ceiling(afterRetries: retries)
        guard jitter > 0 else { return ceiling }
        return ceiling * (1 - Double.random(in: 0...jitter))
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval` counts them.
    package var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
