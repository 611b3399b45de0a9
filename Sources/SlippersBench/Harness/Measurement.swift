import Foundation

/// The timings of one operation repeated over several rounds.
///
/// The median is what figures compare: it ignores the odd round slowed by the
/// other core's work or a page fault. The 10th and 90th percentiles show how
/// spread the rounds were, so a reader can tell a real gap from noise.
struct Measurement: Sendable {
    /// One duration per measured round, in the order they ran.
    var samples: [Duration]

    /// Creates a measurement from at least one sample.
    init(samples: [Duration]) {
        precondition(!samples.isEmpty, "A measurement needs at least one round")
        self.samples = samples
    }

    var median: Duration { percentile(50) }
    var p10: Duration { percentile(10) }
    var p90: Duration { percentile(90) }

    /// The sample below which `percent` of the samples fall (nearest rank, interpolated).
    func percentile(_ percent: Double) -> Duration {
        let sorted = samples.sorted()
        let position = Double(sorted.count - 1) * percent / 100
        let lower = Int(position.rounded(.down))
        let upper = Int(position.rounded(.up))
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}

/// Times `body` once per round, after `warmup` untimed rounds.
///
/// Each round times one operation on its own: the operations measured here
/// take from tens of microseconds to milliseconds, far above the clock's
/// resolution, so batching would only hide the spread. The round's index is
/// passed to `body` so that it can vary its input (a different page each round)
/// without the timed region paying for choosing it.
///
/// - throws: whatever `body` throws; the measurement stops there.
func measure(
    rounds: Int,
    warmup: Int,
    _ body: (_ round: Int) throws -> Void
) rethrows -> Measurement {
    precondition(rounds > 0 && warmup >= 0, "rounds must be positive and warmup not negative")
    let clock = ContinuousClock()
    for round in 0..<warmup {
        try body(round)
    }
    var samples: [Duration] = []
    samples.reserveCapacity(rounds)
    for round in 0..<rounds {
        let start = clock.now
        try body(warmup + round)
        samples.append(start.duration(to: clock.now))
    }
    return Measurement(samples: samples)
}

extension Duration {
    /// The duration in microseconds, as a floating-point number.
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }

    /// The duration in milliseconds, as a floating-point number.
    var milliseconds: Double { microseconds / 1e3 }

    /// The duration in seconds with two decimals, for progress lines, e.g. `"1.25 s"`.
    var secondsText: String { String(format: "%.2f s", microseconds / 1e6) }
}
