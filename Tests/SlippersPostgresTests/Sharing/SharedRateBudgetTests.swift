import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersPostgres
import SlippersTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Workers on one PostgreSQL cache sharing each origin's rate-limit budget through it.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct SharedRateBudgetTests {
    /// The cache's budgets as a limiter's store, as the command line wires them.
    struct Budgets: RateBudgetStore {
        let cache: PostgresCache

        func reserve(for origin: Origin, now: Date) async -> Date? {
            (try? await cache.reserveRequest(origin: origin.description, now: now))?.waitUntil
        }

        func record(_ budget: RateLimiter.Budget, for origin: Origin, now: Date) async {
            try? await cache.recordRateBudget(
                origin: origin.description, limit: budget.limit, remaining: budget.remaining, reset: budget.reset,
                window: budget.window.map { Double($0.components.seconds) }, now: now)
        }
    }

    @Test func twoCachesReservingAtOnceTakeExactlyTheRequestsLeft() async throws {
        try await PostgresServer.with { server in
            let location = try PostgresLocation(server.url(database: try await server.makeDatabase()))
            let (first, second) = (try await PostgresCache.open(location), try await PostgresCache.open(location))
            let origin = "https://api.example.com"
            let reset = Date().addingTimeInterval(60)
            try await first.recordRateBudget(
                origin: origin, limit: 10, remaining: 5, reset: reset, window: 60, now: Date())
            // An answer of the same window with more left (sent before the others) leaves the least.
            try await second.recordRateBudget(
                origin: origin, limit: 10, remaining: 7, reset: reset.addingTimeInterval(0.5), window: 60, now: Date())
            let waits = try await withThrowingTaskGroup(of: Date?.self) { group in
                for index in 0..<20 {
                    let cache = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await cache.reserveRequest(origin: origin, now: Date()).waitUntil }
                }
                return try await group.reduce(into: [Date?]()) { $0.append($1) }
            }
            #expect(waits.filter { $0 == nil }.count == 5)
            let named = waits.compactMap { $0 }
            #expect(named.count == 15)
            #expect(named.allSatisfy { abs($0.timeIntervalSince(reset) - 0.5) < 0.01 }, "the newest reset wins")
            // Past the reset the budget is whole again: its limit, less the request taken then.
            let later = reset.addingTimeInterval(1)
            for _ in 0..<10 { #expect(try await first.reserveRequest(origin: origin, now: later) == .granted) }
            #expect(try await second.reserveRequest(origin: origin, now: later).waitUntil != nil)
            #expect(try await first.reserveRequest(origin: "https://other.example.com", now: later) == .noBudget)
            try await first.close()
            try await second.close()
        }
    }

    @Test(arguments: [RateLimitedList.Style.gitHub, .ietf])
    func twoWorkersSyncingTwoListsOfOneOriginSpendAtMostTwoRefusals(style: RateLimitedList.Style) async throws {
        let fixture = FixtureServer(configuration: .init(itemCount: 10, pageSize: 10))
        try await fixture.start()
        defer { Task { await fixture.stop() } }
        let list = RateLimitedList(style, limit: 3, window: 2, pages: 8)
        list.install(on: fixture, path: "/first")
        list.install(on: fixture, path: "/second")
        try await PostgresServer.with { server in
            let location = try PostgresLocation(server.url(database: try await server.makeDatabase()))
            let pages = try await withThrowingTaskGroup(of: Int.self) { group in
                for path in ["/first", "/second"] {
                    // Two opens of one cache, as two worker processes have.
                    let cache = try await PostgresCache.open(location)
                    let start = fixture.url(path: path)
                    group.addTask {
                        let client = APIClient(
                            configuration: try #require(ServerConfiguration(baseURL: start)),
                            options: APIClient.Options(rateLimiter: RateLimiter(store: Budgets(cache: cache))))
                        var next: URL? = start
                        var pages = 0
                        while let url = next {
                            let response = try await client.send(URLRequest(url: url))
                            #expect(response.statusCode == 200)
                            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                            next = (object?["next"] as? String).flatMap(URL.init(string:))
                            pages += 1
                        }
                        try await cache.close()
                        return pages
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(pages == 16)
            #expect(list.served == 16)
            #expect(list.refused <= 2, "refused \(list.refused)")
        }
    }
}
