import Foundation
import LocalAPI
import Slippers
import SlippersFixtures
import SlippersNetworking
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests kept within a server's rate limit, over real HTTP on 127.0.0.1.
@Suite struct RateLimiterTests {
    /// What a client reported: its waits for rate limits and its retries.
    final class Reports: Sendable {
        let waits = Mutex<[APIClient.RateLimitWait]>([])
        let retries = Mutex(0)
    }

    /// A client of the server whose waits and retries go to `reports`; `floor` is its backoff floor.
    private func limitedClient(
        for server: FixtureServer, floor: Duration = .milliseconds(300), reports: Reports
    ) -> APIClient {
        var client = client(
            for: server, retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: floor, maxDelay: .seconds(1)))
        client.onRateLimitWait = { wait in reports.waits.withLock { $0.append(wait) } }
        client.onRetry = { _ in reports.retries.withLock { $0 += 1 } }
        return client
    }

    /// Fetches pages 1…`pages` of the list, `width` at a time, and returns the ids in page order.
    private func fetchAll(_ client: APIClient, _ server: FixtureServer, pages: Int, width: Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            var next = 1
            var firsts: [Int: Int] = [:]
            func add() {
                let page = next
                next += 1
                group.addTask {
                    let url = server.url(path: "/items", query: ["page": "\(page)"])
                    let response = try await client.send(URLRequest(url: url))
                    let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                    let results = object?["results"] as? [[String: Any]] ?? []
                    return (page, results.first?["id"] as? Int ?? -1)
                }
            }
            while next <= min(width, pages) { add() }
            while let (page, first) = try await group.next() {
                firsts[page] = first
                if next <= pages { add() }
            }
            return (1...pages).map { firsts[$0] ?? -1 }
        }
    }

    @Test(arguments: [RateLimitedList.Style.gitHub, .ietf], [10, 20])
    func threeWindowsOfPagesThroughABudgetPerTwoSecondsSpendAtMostOneRefusal(
        style: RateLimitedList.Style, limit: Int
    ) async throws {
        try await withFixtureServer { server in
            let pages = 3 * limit
            let list = RateLimitedList(style, limit: limit, window: 2, pages: pages)
            list.install(on: server)
            let reports = Reports()
            let client = limitedClient(for: server, reports: reports)
            let started = ContinuousClock.now
            let firsts = try await fetchAll(client, server, pages: pages, width: 4)
            let elapsed = started.duration(to: .now)
            #expect(firsts == (0..<pages).map { $0 * 10 + 1 })
            #expect(list.refused <= 1, "\(list.refused) refused")
            #expect(list.served == pages)
            #expect(reports.retries.withLock { $0 } == 0)
            // Three windows: two resets 2 s apart are the budget's floor, and a reset in whole
            // seconds may add up to a second to each wait; the bound is generous.
            #expect(elapsed < .seconds(12), "\(elapsed)")
            let announced = reports.waits.withLock { $0.filter(\.startsWait) }
            // A budget spent before its window ends is waited for, and announced once; on a slow
            // machine a window may end before its budget is spent, with nothing to wait for.
            #expect(announced.count <= 3, "\(announced.map(\.delay))")
            #expect(list.waitedWindows == 0 || !announced.isEmpty, "\(list.waitedWindows) windows waited for")
            #expect(announced.allSatisfy { $0.delay <= .seconds(3) })
        }
    }

    @Test func aSpentBudgetRefusalWaitsForTheResetAndIsNotARetry() async throws {
        try await withFixtureServer { server in
            let refusals = Mutex(1)
            server.script("/spent") { _ in
                let refuse = refusals.withLock { left in
                    defer { left -= 1 }
                    return left > 0
                }
                guard refuse else { return .json(#"{"ok": true}"#, headers: ["X-RateLimit-Remaining": "59"]) }
                let reset = Int(Date().timeIntervalSince1970.rounded(.down)) + 1
                return FixtureServer.ScriptedResponse(
                    status: 403, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "\(reset)"])
            }
            let reports = Reports()
            // One attempt only: the refusal is not one.
            var client = limitedClient(for: server, reports: reports)
            client.retryPolicy = RetryPolicy(maxAttempts: 1, baseDelay: .milliseconds(100))
            let response = try await client.send(URLRequest(url: server.url(path: "/spent")))
            #expect(response.statusCode == 200)
            #expect(server.requests.count == 2)
            #expect(reports.retries.withLock { $0 } == 0)
            let recorded = reports.waits.withLock { $0 }
            #expect(recorded.count == 1)
            #expect(recorded.first?.refusedStatus == 403)
            #expect(recorded.first?.startsWait == true)
            #expect(recorded.first.map { $0.delay <= .seconds(1) && $0.delay >= .milliseconds(100) } == true)
        }
    }

    @Test func retryAfterZeroWaitsTheBackoffFloorAndCausesNoStorm() async throws {
        try await withFixtureServer { server in
            let arrivals = Mutex<[ContinuousClock.Instant]>([])
            server.script("/zero") { _ in
                let count = arrivals.withLock { list in
                    list.append(.now)
                    return list.count
                }
                guard count > 3 else {
                    return FixtureServer.ScriptedResponse(status: 429, headers: ["Retry-After": "0"])
                }
                return .json(#"{"ok": true}"#)
            }
            let floor = Duration.milliseconds(400)
            var client = client(for: server, retryPolicy: RetryPolicy(maxAttempts: 5, baseDelay: floor, jitter: 0))
            client.onRetry = { _ in Issue.record("a refusal is not a retry") }
            let response = try await client.send(URLRequest(url: server.url(path: "/zero")))
            #expect(response.statusCode == 200)
            let times = arrivals.withLock { $0 }
            #expect(times.count == 4)
            let first = try #require(times.first)
            #expect(times.filter { first.duration(to: $0) < floor }.count <= 2)
            for (earlier, later) in zip(times, times.dropFirst()) {
                #expect(earlier.duration(to: later) >= floor * 0.9)
            }
        }
    }

    @Test func refusalsThatNameNoWaitEndAfterTheRetryPolicysAttempts() async throws {
        try await withFixtureServer { server in
            server.script("/always") { _ in FixtureServer.ScriptedResponse(status: 429, headers: ["Retry-After": "0"]) }
            let client = client(
                for: server, retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(20), jitter: 0))
            let error = await #expect(throws: NetworkError.self) {
                try await client.send(URLRequest(url: server.url(path: "/always")))
            }
            #expect(error?.status == 429)
            #expect(server.requests.count == 3)
        }
    }

    @Test func aRetryAfterDateInThePastWaitsTheBackoffFloor() async throws {
        try await withFixtureServer { server in
            let arrivals = Mutex<[ContinuousClock.Instant]>([])
            server.script("/past") { _ in
                let count = arrivals.withLock { list in
                    list.append(.now)
                    return list.count
                }
                guard count > 1 else {
                    return FixtureServer.ScriptedResponse(
                        status: 429, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"])
                }
                return .json(#"{"ok": true}"#)
            }
            let floor = Duration.milliseconds(400)
            let client = client(for: server, retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: floor, jitter: 0))
            let response = try await client.send(URLRequest(url: server.url(path: "/past")))
            #expect(response.statusCode == 200)
            let times = arrivals.withLock { $0 }
            #expect(times.count == 2)
            #expect(times[0].duration(to: times[1]) >= floor * 0.9)
        }
    }

    @Test func aResetMoreThanTheLongestWaitAwayFailsAtOnceWithAClearError() async throws {
        try await withFixtureServer { server in
            let reset = Int(Date().timeIntervalSince1970) + 7200
            server.script("/later") { _ in
                FixtureServer.ScriptedResponse(
                    status: 403, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "\(reset)"])
            }
            let error = await #expect(throws: NetworkError.self) {
                try await client(for: server).send(URLRequest(url: server.url(path: "/later")))
            }
            guard case .rateLimited(let wait) = error?.kind else {
                Issue.record("expected a rate limit error, got \(String(describing: error))")
                return
            }
            #expect(wait > .seconds(7000))
            #expect(error?.description.hasPrefix("The server's rate limit is spent for 2.0 h more (GET ") == true)
            #expect(error?.isTransient == false)
            #expect(server.requests.count == 1)
        }
    }

    @Test func cancellingATaskEndsItsWaitForTheRateLimit() async throws {
        try await withFixtureServer { server in
            server.script("/slow") { _ in FixtureServer.ScriptedResponse(status: 429, headers: ["Retry-After": "30"]) }
            let client = client(for: server)
            let started = ContinuousClock.now
            let task = Task { try await client.send(URLRequest(url: server.url(path: "/slow"))) }
            await server.waitForRequests(1)
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(started.duration(to: .now) < .seconds(10))
            #expect(server.requests.count == 1)
        }
    }

    @Test func requestsHeldForARefusalWaitForItTooAndItIsAnnouncedOnce() async throws {
        try await withFixtureServer { server in
            let list = RateLimitedList(.gitHub, limit: 3, window: 1, pages: 9)
            list.install(on: server)
            let reports = Reports()
            let client = limitedClient(for: server, reports: reports)
            let limiter = client.rateLimiter
            let firsts = try await fetchAll(client, server, pages: 9, width: 3)
            #expect(firsts == (0..<9).map { $0 * 10 + 1 })
            #expect(list.refused <= 1)
            let origin = try #require(Origin(server.baseURL))
            #expect(limiter.budget(for: origin)?.limit == 3)
            let announced = reports.waits.withLock { $0.filter(\.startsWait) }
            #expect(Set(announced.map { Int($0.until.timeIntervalSince1970.rounded()) }).count == announced.count)
        }
    }

    @Test func aServerWithoutRateLimitFieldsIsNeverHeld() async throws {
        try await withFixtureServer { server in
            let client = client(for: server)
            for _ in 0..<20 { _ = try await client.send(URLRequest(url: server.url(.page))) }
            let origin = try #require(Origin(server.baseURL))
            #expect(client.rateLimiter.budget(for: origin) == nil)
        }
    }
}
