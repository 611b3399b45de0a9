import Foundation
import SlippersFixtures
import SlippersTestSupport
import Testing

/// Several `slippers sync` processes on one list in one PostgreSQL database: one walks the list
/// under its lease, the others wait and report the finished list; a worker killed while it holds
/// the lease is followed from its committed prefix.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(4)))
struct PostgresFleetCommandTests {
    @Test func fourProcessesSyncingOneNewListAtOnceEachEndWithTheListExactly() async throws {
        let itemCount = 2_000
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: itemCount, pageSize: 50) { fixture in
                fixture.server.inject(.delay(.milliseconds(5)), count: 10_000)
                let database = ["--db", server.url(database: try await server.makeDatabase())]
                let url = fixture.url()
                let outcomes = try await withThrowingTaskGroup(of: BuiltBinary.Outcome.self) { group in
                    for _ in 0..<4 {
                        group.addTask { try await BuiltBinary.slippers.run(["sync", url] + database) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for outcome in outcomes {
                    #expect(outcome.status == 0, "\(outcome.stderr)")
                    #expect(
                        outcome.stdout.contains("end reached, \(itemCount) items cached")
                            || outcome.stdout.contains("(40 pages, \(itemCount) items); nothing fetched"),
                        "\(outcome.stdout)")
                }
                // Each page once, and the first page once more for each worker that detected the style.
                #expect(fixture.server.requestCount <= 40 + 4)
                let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
                #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
            }
        }
    }

    @Test func aWorkerKilledHoldingTheLeaseIsFollowedFromItsCommittedPrefixNotFromPage1() async throws {
        let itemCount = 3_000
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: itemCount, pageSize: 50) { fixture in
                fixture.server.inject(.delay(.milliseconds(40)), count: 10_000)
                let name = try await server.makeDatabase()
                let database = ["--db", server.url(database: name)]
                let url = fixture.url()
                let output = try TemporaryDirectory()
                let first = try BuiltBinary.slippers.start(
                    ["sync", url, "--concurrency", "1"] + database, outputDirectory: output.url)
                // Never left running when the test stops early.
                defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
                await fixture.server.waitForRequests(4)
                fixture.server.hold()
                var committed = 0
                for _ in 0..<3_000 where committed < 2 {
                    committed = Int(try await server.psql("SELECT count(*) FROM slippers.pages", database: name)) ?? 0
                    if committed < 2 { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(committed >= 2)
                // The second worker finds the list under way and waits for its lease.
                let secondOutput = try TemporaryDirectory()
                let second = try BuiltBinary.slippers.start(
                    ["sync", url, "--concurrency", "1"] + database, outputDirectory: secondOutput.url)
                defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }
                for _ in 0..<500 {
                    let said =
                        (try? String(contentsOf: secondOutput.url.appendingPathComponent("stderr"), encoding: .utf8))
                    if said?.contains("waiting for another worker") == true { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                kill(first.processIdentifier, SIGKILL)
                await BuiltBinary.waitForExit(of: first)
                committed = Int(try await server.psql("SELECT count(*) FROM slippers.pages", database: name)) ?? 0
                let requestsOfFirstRun = fixture.server.requestCount
                fixture.server.release()
                await BuiltBinary.waitForExit(of: second)
                let stdout = try String(
                    contentsOf: secondOutput.url.appendingPathComponent("stdout"), encoding: .utf8)
                let stderr = try String(
                    contentsOf: secondOutput.url.appendingPathComponent("stderr"), encoding: .utf8)
                #expect(second.terminationStatus == 0, "\(stderr)")
                #expect(stderr.contains("waiting for another worker syncing \(url)"))
                #expect(stdout.contains("(resumed after \(committed) cached pages)"), "\(stdout)")
                #expect(stdout.contains("end reached, \(itemCount) items cached"))
                // Page numbers start at 1: the second worker asks for none of the committed pages.
                let pages = fixture.server.requests.dropFirst(requestsOfFirstRun).map {
                    Int($0.query["page"] ?? "") ?? 0
                }
                #expect(pages.allSatisfy { $0 > committed })
                let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
                #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
            }
        }
    }
}
