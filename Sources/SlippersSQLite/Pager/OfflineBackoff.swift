import Foundation
import Slippers

/// How long a ``Pager`` waits before it asks the network again after a failed load.
///
/// After the n-th failure in a row the pager sends no request for
/// `min(maximum, initial × 2^(n-1))` seconds: offline, scrolling grows the
/// window through the cached pages without a request per row. A success
/// resets the count; ``Pager/retry()`` and ``Pager/refresh()`` ask at once.
public struct OfflineBackoff: Hashable, Sendable {
    /// The wait after the first failure, in seconds.
    package var initial: TimeInterval
    /// The longest wait, in seconds.
    package var maximum: TimeInterval

    /// Creates a backoff; 2 seconds after a first failure, doubling up to 5 minutes unless given.
    public init(initial: TimeInterval = 2, maximum: TimeInterval = 300) {
        self.initial = max(0, initial)
        self.maximum = max(self.initial, maximum)
    }

    /// The waits, without jitter: a pager's pause is the same in every run.
    package var backoff: Backoff {
        Backoff(initial: .seconds(initial), maximum: .seconds(min(maximum, 1e12)))
    }

    /// The wait after `failures` failures in a row (at least 1).
    package func delay(afterFailures failures: Int) -> TimeInterval {
        backoff.ceiling(afterRetries: max(failures, 1) - 1).timeInterval
    }
}
