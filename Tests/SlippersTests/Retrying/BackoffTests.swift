import Slippers
import Testing

@Suite struct BackoffTests {
    @Test func waitsDoubleFromTheFirstUpToTheMaximum() {
        let backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(3))
        #expect(
            (0...4).map(backoff.ceiling(afterRetries:)) == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3),
            ])
        #expect(backoff.ceiling(afterRetries: 10_000) == .seconds(3))
        #expect(backoff.delay(afterRetries: 1) == .seconds(1))
    }

    @Test func jitterTakesARandomShareOffTheCeiling() {
        let half = Backoff(initial: .seconds(2), maximum: .seconds(2), jitter: 0.5)
        let full = Backoff(initial: .seconds(2), maximum: .seconds(2), jitter: 1)
        for _ in 0..<100 {
            #expect((Duration.seconds(1)...Duration.seconds(2)).contains(half.delay(afterRetries: 0)))
            #expect((Duration.zero...Duration.seconds(2)).contains(full.delay(afterRetries: 0)))
        }
    }

    @Test func outOfRangeValuesAreClamped() {
        let backoff = Backoff(initial: .seconds(-1), maximum: .seconds(-5), jitter: 7)
        #expect(backoff.initial == .zero)
        #expect(backoff.maximum == .zero)
        #expect(backoff.jitter == 1)
        #expect(Backoff(initial: .seconds(4), maximum: .seconds(1)).maximum == .seconds(4))
    }
}
