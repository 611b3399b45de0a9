import Foundation
import SlippersNetworking
import Testing

/// Reading a response's rate-limit fields, in every form servers send them.
@Suite struct RateLimitHeadersTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func limits(_ headers: [String: String]) -> RateLimitHeaders {
        RateLimitHeaders(headers: headers, now: now)
    }

    @Test func gitHubFieldsGiveTheLimitWhatIsLeftAndTheResetAsAnEpochDate() {
        let read = limits([
            "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1800000042",
            "x-ratelimit-used": "5000", "x-ratelimit-resource": "core",
        ])
        #expect(read.limit == 5000)
        #expect(read.remaining == 0)
        #expect(read.resetIn == .seconds(42))
        #expect(read.isSpent)
        #expect(read.isRefusal(status: 403))
        #expect(read.refusalWait == .seconds(42))
    }

    @Test func aSmallResetIsDeltaSecondsAndAnEpochDatePastIsZero() {
        #expect(limits(["X-RateLimit-Reset": "30"]).resetIn == .seconds(30))
        #expect(limits(["X-RateLimit-Reset": "1799999000"]).resetIn == .zero)
    }

    @Test func anEpochResetLessThanASecondPastIsAWaitOfAMillisecond() {
        let later = Date(timeIntervalSince1970: 1_800_000_000.75)
        let read = RateLimitHeaders(
            headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1800000000"], now: later)
        #expect(read.resetIn == .milliseconds(1))
        #expect(read.refusalWait == .milliseconds(1))
        #expect(limits(["X-RateLimit-Reset": "1800000000"]).resetIn == .milliseconds(1))
        #expect(limits(["X-RateLimit-Reset": "1799999999"]).resetIn == .zero)
    }

    @Test func theDraftsSeparateFieldsAreRead() {
        let read = limits(["RateLimit-Limit": "100, 100;w=60", "RateLimit-Remaining": "7", "RateLimit-Reset": "12"])
        #expect(read.limit == 100)
        #expect(read.remaining == 7)
        #expect(read.resetIn == .seconds(12))
        #expect(!read.isSpent)
    }

    @Test func theStructuredFieldsNameTheirPolicy() {
        let read = limits([
            "RateLimit": #""default";r=50;t=30"#, "RateLimit-Policy": #""burst";q=10;w=1, "default";q=100;w=60"#,
        ])
        #expect(read.limit == 100)
        #expect(read.remaining == 50)
        #expect(read.resetIn == .seconds(30))
        #expect(read.window == .seconds(60))
    }

    @Test func theMostConstrainedOfSeveralPoliciesApplies() {
        let read = limits([
            "RateLimit": #""day";r=900;t=40000, "minute";r=0;t=12"#,
            "RateLimit-Policy": #""day";q=1000;w=86400, "minute";q=20;w=60"#,
        ])
        #expect(read.remaining == 0)
        #expect(read.resetIn == .seconds(12))
        #expect(read.limit == 20)
    }

    @Test func theOlderDictionaryFormIsRead() {
        let read = limits(["RateLimit": "limit=100, remaining=0, reset=9", "RateLimit-Policy": "100;w=60"])
        #expect(read.limit == 100)
        #expect(read.remaining == 0)
        #expect(read.resetIn == .seconds(9))
        #expect(read.window == .seconds(60))
    }

    @Test func retryAfterIsSecondsOrAnHTTPDateAndADatePastIsZero() {
        #expect(limits(["Retry-After": "3"]).retryAfter == .seconds(3))
        #expect(limits(["Retry-After": "0"]).retryAfter == .zero)
        #expect(limits(["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"]).retryAfter == .zero)
        let date = "Fri, 15 Jan 2027 08:00:10 GMT"  // 1 800 000 010
        #expect(limits(["Retry-After": date]).retryAfter == .seconds(10))
        let refused = limits(["Retry-After": "0"])
        #expect(refused.isRefusal(status: 429))
        #expect(refused.refusalWait == .zero)
    }

    @Test func aRefusalNeedsARateLimitStatusAndASpentBudgetOrAWait() {
        #expect(!limits(["Retry-After": "3"]).isRefusal(status: 503))
        #expect(!limits([:]).isRefusal(status: 429))
        #expect(!limits(["X-RateLimit-Remaining": "4"]).isRefusal(status: 403))
        #expect(limits(["X-RateLimit-Remaining": "0"]).isRefusal(status: 429))
        #expect(limits([:]).isEmpty)
    }

    @Test(arguments: [
        ["X-RateLimit-Remaining": "-1"], ["X-RateLimit-Limit": "lots"], ["X-RateLimit-Reset": "nan"],
        ["X-RateLimit-Reset": "-5"], ["X-RateLimit-Reset": "1e400"], ["Retry-After": "-3"],
        ["Retry-After": "soon"], ["Retry-After": "Sun, 06 Nov"],
        ["Retry-After": "99999999999999999999999"], ["RateLimit": ";;;,,,\"\"\"==="],
        ["RateLimit": #""default";r=abc;t=-1"#], ["RateLimit-Policy": #""x";q=;w=inf"#],
        ["RateLimit": "limit=, remaining=x, reset=1e999"], ["RateLimit": "\""],
    ])
    func malformedValuesAreIgnored(headers: [String: String]) {
        let read = limits(headers)
        #expect(read.remaining == nil)
        #expect(read.limit == nil)
        #expect(read.resetIn == nil)
        #expect(read.retryAfter == nil)
        #expect(read.window == nil)
    }
}
