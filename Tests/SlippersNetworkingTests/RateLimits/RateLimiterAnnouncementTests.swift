import Foundation
import Testing

@testable import SlippersNetworking

/// When a wait for a rate limit is announced: once per reset, whatever the clocks did.
@Suite struct RateLimiterAnnouncementTests {
    let origin = Origin(scheme: "https", host: "api.example.com")

    @Test func aWaitEndingWithinASecondOfOneJustOverIsTheSameWaitAndNotAnnouncedAgain() async throws {
        let limiter = RateLimiter()
        let (until, first) = limiter.block(origin, for: .milliseconds(100), spent: true)
        #expect(first != nil)
        // The first wait runs out, then the same reset holds the origin a little longer (a record
        // of the refusal's headers made after a scheduling delay).
        try await Task.sleep(until: until + .milliseconds(20), clock: .continuous)
        let (_, again) = limiter.block(origin, for: .milliseconds(80), spent: true)
        #expect(again == nil)
    }

    @Test func aWaitForALaterResetIsAnnounced() async throws {
        let limiter = RateLimiter()
        #expect(limiter.block(origin, for: .milliseconds(50), spent: true).1 != nil)
        // A hold ending more than a second after the one announced is another window's.
        #expect(limiter.block(origin, for: .milliseconds(1_500), spent: true).1 != nil)
        // And so is any hold once the announced one has been over for a second.
        let limiter2 = RateLimiter()
        let (until, _) = limiter2.block(origin, for: .milliseconds(10), spent: true)
        try await Task.sleep(until: until + .milliseconds(1_050), clock: .continuous)
        #expect(limiter2.block(origin, for: .milliseconds(10), spent: true).1 != nil)
    }
}
