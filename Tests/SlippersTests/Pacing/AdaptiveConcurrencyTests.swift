import Slippers
import Testing

@Suite struct AdaptiveConcurrencyTests {
    @Test func startsAtItsMaximumUnlessToldOtherwise() {
        #expect(AdaptiveConcurrency(maximum: 6).limit == 6)
        #expect(AdaptiveConcurrency(maximum: 6, initial: 2).limit == 2)
        #expect(AdaptiveConcurrency(maximum: 0).limit == 1)
        #expect(AdaptiveConcurrency(maximum: 4, initial: 9).limit == 4)
    }

    @Test func aThrottleHalvesTheLimitDownToOne() {
        let concurrency = AdaptiveConcurrency(maximum: 8)
        concurrency.recordThrottle()
        #expect(concurrency.limit == 4)
        concurrency.recordThrottle()
        #expect(concurrency.limit == 2)
        concurrency.recordThrottle()
        concurrency.recordThrottle()
        #expect(concurrency.limit == 1)
        #expect(concurrency.snapshot.throttles == 4)
    }

    @Test func eachWindowOfSuccessesRaisesTheLimitByOneUpToTheMaximum() {
        let concurrency = AdaptiveConcurrency(maximum: 4, initial: 2)
        func succeed(_ count: Int) {
            for _ in 0..<count { concurrency.finish(request: concurrency.start(), succeeded: true) }
        }
        succeed(1)
        #expect(concurrency.limit == 2)
        succeed(1)
        #expect(concurrency.limit == 3)
        succeed(3)
        #expect(concurrency.limit == 4)
        succeed(20)
        #expect(concurrency.limit == 4)
    }

    @Test func failuresDoNotRaiseTheLimit() {
        let concurrency = AdaptiveConcurrency(maximum: 4, initial: 1)
        for _ in 0..<5 { concurrency.finish(request: concurrency.start(), succeeded: false) }
        #expect(concurrency.limit == 1)
    }

    @Test func theThrottlesOfOneWindowOfRequestsHalveTheLimitOnce() async throws {
        let concurrency = AdaptiveConcurrency(maximum: 8)
        let window = (0..<8).map { _ in concurrency.start() }
        for number in window {
            try await concurrency.run(request: number) { concurrency.recordThrottle() }
        }
        #expect(concurrency.limit == 4)
        #expect(concurrency.snapshot.decreases == 1)
        #expect(concurrency.snapshot.throttles == 8)

        // A request started after the decrease belongs to the next window: its throttle halves again.
        let later = concurrency.start()
        try await concurrency.run(request: later) { concurrency.recordThrottle() }
        #expect(concurrency.limit == 2)
        #expect(concurrency.snapshot.decreases == 2)
    }

    @Test func retryAfterHoldsEveryNewRequestBackUntilItHasPassed() {
        let concurrency = AdaptiveConcurrency(maximum: 4)
        let now = ContinuousClock.now
        #expect(concurrency.hasRoom(at: now))
        concurrency.recordThrottle(retryAfter: .seconds(2), now: now)
        #expect(concurrency.pause(at: now) == .seconds(2))
        #expect(!concurrency.hasRoom(at: now))
        #expect(!concurrency.hasRoom(at: now.advanced(by: .seconds(1))))
        #expect(concurrency.hasRoom(at: now.advanced(by: .seconds(2))))
        #expect(concurrency.pause(at: now.advanced(by: .seconds(3))) == nil)
        // A shorter Retry-After does not shorten the pause.
        concurrency.recordThrottle(retryAfter: .seconds(1), now: now)
        #expect(concurrency.pause(at: now) == .seconds(2))
    }

    @Test func countsTheRequestsInFlightAndTheMostAtOnce() {
        let concurrency = AdaptiveConcurrency(maximum: 3)
        let first = concurrency.start()
        let second = concurrency.start()
        #expect(concurrency.hasRoom())
        let third = concurrency.start()
        #expect(!concurrency.hasRoom())
        concurrency.finish(request: first, succeeded: true)
        concurrency.finish(request: second, succeeded: true)
        #expect(concurrency.snapshot.inFlight == 1)
        #expect(concurrency.snapshot.maxInFlight == 3)
        concurrency.finish(request: third, succeeded: true)
        #expect(concurrency.snapshot.inFlight == 0)
        #expect(concurrency.snapshot.started == 3)
    }
}
