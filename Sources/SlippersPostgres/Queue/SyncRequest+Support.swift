import Foundation
import Slippers

extension SyncRequest.Schedule {
    /// How far a scheduled list's next run moves, as a share of ``every``, either way at random:
    /// 0.1, so that lists enqueued together do not stay in step and hit their servers together.
    package static let jitter = 0.1
    /// The wait after a scheduled list's first failure in a row: 30 s, doubled after each further one.
    static let firstBackoff: TimeInterval = 30
    /// The longest wait after a failure: 1 h (and never more than ``every``).
    static let longestBackoff: TimeInterval = 3_600

    /// When a scheduled list comes due again after a run that succeeded at `finished`:
    /// `finished + every × (1 + jitter × spread)`, with `spread` in −1...1 (at random unless given).
    public func nextRun(after finished: Date, spread: Double = .random(in: -1...1)) -> Date {
        let spread = min(1, max(-1, spread.isFinite ? spread : 0))
        return finished.addingTimeInterval(max(0, every) * (1 + Self.jitter * spread))
    }

    /// How long a scheduled list waits after its `failures`-th failure in a row (1 for the first):
    /// ``firstBackoff`` × 2^(failures − 1), at most ``every`` and at most ``longestBackoff``.
    public func backoff(afterFailures failures: Int) -> TimeInterval {
        let doublings = Double(min(max(failures, 1), 40) - 1)
        return max(0, min(every, Self.longestBackoff, Self.firstBackoff * pow(2, doublings)))
    }
}
