/// How many rounds each measurement runs, and how many untimed rounds precede them.
struct MeasurementSettings: Sendable {
    var rounds: Int
    var warmup: Int

    /// Round indexes a body receives: warm-up rounds first, then timed rounds.
    var roundIndexes: Range<Int> { 0..<(warmup + rounds) }

    /// Times `body` with these settings (see ``measure(rounds:warmup:_:)``).
    func measure(_ body: (_ round: Int) throws -> Void) throws -> Measurement {
        try SlippersBench.measure(rounds: rounds, warmup: warmup, body)
    }

    /// Times `bodies` round by round with these settings (see ``measureInterleaved(rounds:warmup:_:)``).
    func measureInterleaved(_ bodies: [(_ round: Int) throws -> Void]) throws -> [Measurement] {
        try SlippersBench.measureInterleaved(rounds: rounds, warmup: warmup, bodies)
    }
}
