/// Times `body` once per round, after `warmup` untimed rounds.
///
/// Each round times one operation on its own: the operations measured here
/// take from tens of microseconds to milliseconds, far above the clock's
/// resolution, so batching would only hide the spread. The round's index is
/// passed to `body` so that it can vary its input (a different page each round)
/// without the timed region paying for choosing it. Warm-up rounds get indexes
/// `0..<warmup`, timed rounds the ones after.
///
/// - throws: whatever `body` throws; the measurement stops there.
func measure(
    rounds: Int,
    warmup: Int,
    _ body: (_ round: Int) throws -> Void
) throws -> Measurement {
    // The array only lives for the call, so the closure does not really escape.
    try withoutActuallyEscaping(body) { body in
        try measureInterleaved(rounds: rounds, warmup: warmup, [body])[0]
    }
}

/// Times several operations round by round, each once per round, so that they
/// share the machine's conditions.
///
/// On a machine where other work comes and goes (two cores, shared with
/// builds), measuring a figure and its baseline one after the other lets a burst
/// of load land on one of them only; interleaving spreads it over both, which
/// keeps their ratio honest. The order rotates from round to round so that no
/// operation always runs first, on colder caches, or last.
///
/// - returns: one measurement per body, in the order of `bodies`.
/// - throws: whatever a body throws; the measurement stops there.
func measureInterleaved(
    rounds: Int,
    warmup: Int,
    _ bodies: [(_ round: Int) throws -> Void]
) throws -> [Measurement] {
    precondition(rounds > 0 && warmup >= 0, "rounds must be positive and warmup not negative")
    precondition(!bodies.isEmpty, "Nothing to measure")
    let clock = ContinuousClock()
    var samples = [[Duration]](repeating: [], count: bodies.count)
    for round in 0..<(warmup + rounds) {
        for offset in bodies.indices {
            let index = (round + offset) % bodies.count
            let start = clock.now
            try bodies[index](round)
            let duration = start.duration(to: clock.now)
            if round >= warmup { samples[index].append(duration) }
        }
    }
    return samples.map(Measurement.init(samples:))
}
