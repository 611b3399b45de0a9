/// What a figure must reach, and how to tell whether it did.
///
/// A ratio is always `value / baseline_value`, whatever the target, so a
/// script reads every figure the same way; "10× faster" is a ratio of at most 0.1.
enum Target: Sendable, Equatable {
    /// The ratio to the baseline must be at most this, e.g. 1.0 for "no slower".
    case ratioAtMost(Double)
    /// The ratio to the baseline must be at least this.
    case ratioAtLeast(Double)
    /// The figure must be at least this many times faster than its baseline (ratio ≤ 1 / factor).
    case fasterBy(Double)
    /// The value itself must be at most this, in the figure's unit (milliseconds, megabytes, rows).
    case valueAtMost(Double)
    /// The value is a yes/no fact (1 for yes) that must hold.
    case holds
    /// Reported for context only: nothing to reach.
    case information

    /// A short text for people and scripts, e.g. `"<= 1.0x (a) raw SQLite rows"`.
    func text(baseline: String?, unit: String) -> String {
        let against = baseline.map { " " + $0 } ?? ""
        switch self {
        case .ratioAtMost(let limit): return "<= \(Self.format(limit))x" + against
        case .ratioAtLeast(let limit): return ">= \(Self.format(limit))x" + against
        case .fasterBy(let factor): return ">= \(Self.format(factor))x faster than" + against
        case .valueAtMost(let limit): return "<= \(Self.format(limit)) \(unit)"
        case .holds: return "holds"
        case .information: return "info"
        }
    }

    /// Whether `value` (with its `ratio` to the baseline) reaches the target; `nil` for information.
    func isMet(value: Double, ratio: Double?) -> Bool? {
        switch self {
        case .ratioAtMost(let limit): return ratio.map { $0 <= limit }
        case .ratioAtLeast(let limit): return ratio.map { $0 >= limit }
        case .fasterBy(let factor): return ratio.map { $0 <= 1 / factor }
        case .valueAtMost(let limit): return value <= limit
        case .holds: return value == 1
        case .information: return nil
        }
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) + (number < 10 ? ".0" : "") : String(number)
    }
}
