import Foundation
import Slippers
import SlippersNetworking
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client that reports the `429`s and `503`s it retries to a concurrency controller.
@Suite struct APIClientThrottlingTests {
    private func client(_ transport: ScriptedTransport, sleeps: SleepRecorder) -> APIClient {
        APIClient(
            configuration: ServerConfiguration(host: "api.test"),
            options: APIClient.Options(
                transport: transport, retryPolicy: RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(1), jitter: 0),
                sleep: sleeps.sleep))
    }

    @Test func tooManyRequestsAndUnavailableHalveTheLimitAndPauseForRetryAfter() async throws {
        let transport = ScriptedTransport(
            StubResponse(statusCode: 429),
            StubResponse(statusCode: 503, headers: ["Retry-After": "3"]),
            StubResponse(statusCode: 200, body: Data("{}".utf8)))
        let concurrency = AdaptiveConcurrency(maximum: 8)
        let retries = SleepRecorder()
        let counted = Mutex(0)
        var client = client(transport, sleeps: retries)
        client.onRetry = { _ in counted.withLock { $0 += 1 } }
        let response = try await client.reportingThrottles(to: concurrency).send(
            URLRequest(url: URL(string: "https://api.test/items")!))
        #expect(response.statusCode == 200)
        #expect(concurrency.snapshot.throttles == 2)
        #expect(concurrency.limit == 2)
        #expect(try #require(concurrency.pause()) > .seconds(2))
        // The client's own callback is still called, once per retry.
        #expect(counted.withLock { $0 } == 2)
    }

    @Test func aRequestARateLimitRefusedIsAThrottleButNotARetry() async throws {
        let transport = ScriptedTransport(
            StubResponse(statusCode: 429, headers: ["Retry-After": "3"]),
            StubResponse(statusCode: 200, body: Data("{}".utf8)))
        let concurrency = AdaptiveConcurrency(maximum: 8)
        let sleeps = SleepRecorder()
        let counted = Mutex(0)
        var client = client(transport, sleeps: sleeps)
        client.onRetry = { _ in counted.withLock { $0 += 1 } }
        let response = try await client.reportingThrottles(to: concurrency).send(
            URLRequest(url: URL(string: "https://api.test/items")!))
        #expect(response.statusCode == 200)
        #expect(concurrency.snapshot.throttles == 1)
        #expect(try #require(concurrency.pause()) > .seconds(2))
        #expect(counted.withLock { $0 } == 0)
        #expect(sleeps.recorded == [.seconds(3)])
    }

    @Test func otherFailuresAreNotThrottles() async throws {
        let transport = ScriptedTransport(
            StubResponse(statusCode: 500), StubResponse(statusCode: 200, body: Data("{}".utf8)))
        let concurrency = AdaptiveConcurrency(maximum: 8)
        _ = try await client(transport, sleeps: SleepRecorder()).reportingThrottles(to: concurrency).send(
            URLRequest(url: URL(string: "https://api.test/items")!))
        #expect(concurrency.snapshot.throttles == 0)
        #expect(concurrency.limit == 8)
    }
}
