import SlippersNetworking
import Testing

@Suite struct RetryPolicyTests {
    private let serverError = NetworkError(.http(status: 503, bodySnippet: ""))

    @Test func delaysGrowExponentiallyUpToTheMaximum() {
        let policy = RetryPolicy(
            maxAttempts: 10, baseDelay: .milliseconds(100), maxDelay: .milliseconds(500), jitter: 0)
        let delays = (1...5).map { policy.delay(afterAttempt: $0, error: serverError) }
        #expect(
            delays == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500),
            ])
    }

    @Test func jitterOnlyShortensTheWaitWithinItsShare() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(1000), jitter: 0.25)
        for _ in 0..<200 {
            let delay = policy.delay(afterAttempt: 1, error: serverError)
            #expect(delay.map { $0 >= .milliseconds(750) && $0 <= .milliseconds(1000) } == true)
        }
    }

    @Test func attemptsAreBounded() {
        let policy = RetryPolicy(maxAttempts: 3)
        #expect(policy.delay(afterAttempt: 2, error: serverError) != nil)
        #expect(policy.delay(afterAttempt: 3, error: serverError) == nil)
        #expect(RetryPolicy.none.delay(afterAttempt: 1, error: serverError) == nil)
    }

    @Test func transportFailuresAnd408And429And5xxAreRetriedOtherStatusesAreNot() {
        let policy = RetryPolicy(maxAttempts: 3)
        let retried: [NetworkError.Kind] = [
            .transport(.cannotConnect), .transport(.timeout), .transport(.connectionLost),
            .http(status: 408, bodySnippet: ""), .http(status: 429, bodySnippet: ""),
            .http(status: 500, bodySnippet: ""), .http(status: 502, bodySnippet: ""),
        ]
        let notRetried: [NetworkError.Kind] = [
            .transport(.cancelled), .http(status: 400, bodySnippet: ""), .http(status: 401, bodySnippet: ""),
            .http(status: 404, bodySnippet: ""), .decoding(path: "", reason: "", bodySnippet: ""),
            .notAdvancing(token: "x"),
        ]
        for kind in retried { #expect(policy.delay(afterAttempt: 1, error: NetworkError(kind)) != nil, "\(kind)") }
        for kind in notRetried { #expect(policy.delay(afterAttempt: 1, error: NetworkError(kind)) == nil, "\(kind)") }
    }

    @Test func retryAfterIsWaitedForUnlessItIsTooLong() {
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxRetryAfter: .seconds(30))
        let soon = NetworkError(.http(status: 429, bodySnippet: ""), retryAfter: .seconds(5))
        let late = NetworkError(.http(status: 429, bodySnippet: ""), retryAfter: .seconds(120))
        #expect(policy.delay(afterAttempt: 1, error: soon) == .seconds(5))
        #expect(policy.delay(afterAttempt: 1, error: late) == nil)
    }
}
