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
