import Foundation
import SlippersTestSupport
import Testing

@Suite struct SyncVerboseTests {
    static let token = "s3cr3t-bearer-token"

    @Test func verboseShowsEachExchangeOnStderrAndNeverTheToken() async throws {
        try await RunningFixture.with(itemCount: 60, pageSize: 25, bearerToken: Self.token) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run([
                "--verbose", "sync", fixture.url(query: ["api_key": "s3cr3t-query-key"]),
                "--header", "Authorization: Bearer \(Self.token)", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("synced 60 items in 3 pages"))
            let exchanges = outcome.stderr.split(separator: "\n").filter { $0.contains("HTTP exchange") }
            #expect(exchanges.count == fixture.server.requests.count)
            let first = try #require(exchanges.first)
            #expect(first.hasPrefix("slippers: debug: HTTP exchange"))
            for field in ["method=GET", "status=200", "elapsed_ms=", "redirect_hop=0", "Authorization: <redacted>"] {
                #expect(first.contains(field), "\(field) in \(first)")
            }
            #expect(first.contains("url=http://127.0.0.1:\(fixture.server.port)/"))
            #expect(first.contains("api_key=***"))
            #expect(!outcome.stderr.contains("s3cr3t"))
            #expect(fixture.server.requests.allSatisfy { $0.authorization == "Bearer \(Self.token)" })
        }
    }

    @Test func verboseMayFollowTheCommandsName() async throws {
        try await RunningFixture.with(itemCount: 10, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--verbose", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("slippers: debug: HTTP exchange"))
        }
    }

    @Test func withoutVerboseNothingIsLogged() async throws {
        try await RunningFixture.with(itemCount: 10, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.isEmpty)
        }
    }
}
