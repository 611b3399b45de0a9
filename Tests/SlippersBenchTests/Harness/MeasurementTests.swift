import Testing

@testable import SlippersBench

@Suite struct MeasurementTests {
    @Test func medianAndPercentilesInterpolateBetweenSortedSamples() {
        let measurement = Measurement(samples: [5, 1, 4, 2, 3].map { Duration.microseconds($0) })
        #expect(measurement.median == .microseconds(3))
        #expect(measurement.percentile(0) == .microseconds(1))
        #expect(measurement.percentile(100) == .microseconds(5))
        #expect(measurement.p10 == .microseconds(1.4))
        #expect(measurement.p90 == .microseconds(4.6))
    }

    @Test func measureRunsWarmupThenTimedRoundsWithTheirIndexes() throws {
        var seen: [Int] = []
        let measurement = try measure(rounds: 3, warmup: 2) { seen.append($0) }
        #expect(seen == [0, 1, 2, 3, 4])
        #expect(measurement.samples.count == 3)
    }

    @Test func interleavedBodiesEachRunOncePerRoundInRotatingOrder() throws {
        var order: [String] = []
        let measurements = try measureInterleaved(
            rounds: 2, warmup: 1,
            [
                { order.append("a\($0)") },
                { order.append("b\($0)") },
            ])
        #expect(order == ["a0", "b0", "b1", "a1", "a2", "b2"])
        #expect(measurements.map(\.samples.count) == [2, 2])
    }

    @Test func aThrowingBodyStopsTheMeasurement() {
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try measure(rounds: 3, warmup: 0) { round in if round == 1 { throw Failure() } }
        }
    }
}
