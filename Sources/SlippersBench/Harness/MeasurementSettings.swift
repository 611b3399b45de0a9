/// How many rounds each measurement runs, and how many untimed rounds precede them.
struct MeasurementSettings: Sendable {
    var rounds: Int
    var warmup: Int

    /// Times `body` with these settings (see ``measure(rounds:warmup:_:)``).
    func measure(_ body: (_ round: Int) throws -> Void) rethrows -> Measurement {
        try SlippersBench.measure(rounds: rounds, warmup: warmup, body)
    }
}
