import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// Two `slippers sync` processes on one PostgreSQL cache share each origin's rate-limit budget through it.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct PostgresSharedRateLimitTests {
    @Test(arguments: [RateLimitedList.Style.gitHub, .ietf])
    func twoProcessesSyncingTwoListsOfOneOriginSpendAtMostTwoRefusals(style: RateLimitedList.Style) async throws {
        try await PostgresServer.with { server in
            try await RunningFixture.with { fixture in
                // Three requests per two seconds for both lists: each window's budget is spent.
                let list = RateLimitedList(style, limit: 3, window: 2, pages: 6)
                list.install(on: fixture.server, path: "/first")
                list.install(on: fixture.server, path: "/second")
                let database = server.url(database: try await server.makeDatabase())
                func sync(_ path: String) async throws -> BuiltBinary.Outcome {
                    try await BuiltBinary.slippers.run([
                        "sync", fixture.server.url(path: path).absoluteString, "--retry-delay", "0.2", "--db", database,
                    ])
                }
                async let first = sync("/first")
                async let second = sync("/second")
                for outcome in try await [first, second] {
                    #expect(outcome.status == 0, "\(outcome.stderr)")
                    #expect(outcome.stdout.contains("60 items"), "\(outcome.stdout)")
                }
                #expect(list.served >= 12)
                #expect(list.refused <= 2, "\(list.refused) refused")
            }
        }
    }
}
