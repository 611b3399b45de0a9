import Foundation
import LocalAPI
import SlippersTestSupport

/// What a fleet test runs against: a PostgreSQL server it starts, a new database of it, and the
/// fixture API, each of its answers held back as a remote server's would be.
struct FleetScene {
    let server: PostgresServer
    let fixture: RunningFixture
    /// The new database's name, for `server.psql`.
    let name: String
    /// `--db` and the database's URL, for the command line.
    let database: [String]

    /// Runs `body` in a new scene; the servers are stopped after it, whatever happens.
    ///
    /// - parameter delay: How late the fixture API answers, for the first `delayedRequests` requests.
    static func with(
        itemCount: Int, pageSize: Int, delay: Duration? = nil, delayedRequests: Int = 10_000,
        _ body: (FleetScene) async throws -> Void
    ) async throws {
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: itemCount, pageSize: pageSize) { fixture in
                if let delay { fixture.server.inject(.delay(delay), count: delayedRequests) }
                let name = try await server.makeDatabase()
                try await body(
                    FleetScene(
                        server: server, fixture: fixture, name: name, database: ["--db", server.url(database: name)]))
            }
        }
    }
}
