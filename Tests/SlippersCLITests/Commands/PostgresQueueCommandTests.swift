import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// The fleet's queue with real worker processes: lists enqueued once, taken by workers under a
/// lease, a worker killed by SIGKILL followed from its list's committed prefix.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(4)))
struct PostgresQueueCommandTests {
    @Test func workersSyncEveryQueuedListExactlyAndAKilledWorkersListIsResumedNotRestarted() async throws {
        let itemCount = 1_500
        try await FleetScene.with(
            itemCount: itemCount, pageSize: 50, delay: .milliseconds(15), delayedRequests: 100_000
        ) { scene in
            let (server, fixture, name, database) = (scene.server, scene.fixture, scene.name, scene.database)
            let lists = (1...4).map { fixture.url(query: ["list": String($0)]) }
            let enqueued = try await BuiltBinary.slippers.run(
                ["enqueue"] + database + lists + ["--concurrency", "1"])
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            #expect(enqueued.stdout.split(separator: "\n").count == 4)

            // The first worker takes a list; killed once it has committed a few pages. The server holds
            // its answers from the 8th request on, so that the list cannot end before the kill lands
            // on a loaded machine.
            fixture.server.hold(fromRequest: fixture.server.requestCount + 8)
            let output = try TemporaryDirectory()
            let doomed = try BuiltBinary.slippers.start(
                ["worker", "--lease", "3", "--poll", "0.2"] + database, outputDirectory: output.url)
            // Never left running when the test stops early.
            defer { if doomed.isRunning { kill(doomed.processIdentifier, SIGKILL) } }
            var committed = 0
            // Pages of the list it holds now: on a slow machine it may have finished a list before the first look.
            for _ in 0..<600 where committed < 3 {
                committed =
                    Int(
                        try await server.psql(
                            "SELECT count(*) FROM slippers.pages p JOIN slippers.collections c ON c.id = p.collection_id "
                                + "JOIN slippers.queue q ON q.collection_key = c.key WHERE q.state = 'running'",
                            database: name)) ?? 0
                if committed < 3 { try await Task.sleep(for: .milliseconds(20)) }
            }
            kill(doomed.processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: doomed)
            #expect(doomed.terminationReason == .uncaughtSignal)
            let killedList = try await server.psql(
                "SELECT url FROM slippers.queue WHERE state = 'running'", database: name)
            let committedOfKilled =
                Int(
                    try await server.psql(
                        "SELECT count(*) FROM slippers.pages p JOIN slippers.collections c ON c.id = p.collection_id "
                            + "JOIN slippers.queue q ON q.collection_key = c.key WHERE q.state = 'running'",
                        database: name)) ?? 0
            #expect(!killedList.isEmpty)
            #expect(committedOfKilled >= 1)
            fixture.server.release()
            let requestsBefore = fixture.server.requestCount

            // Two workers finish the queue, one of them taking the killed worker's list after its lease.
            let outcomes = try await withThrowingTaskGroup(of: BuiltBinary.Outcome.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await BuiltBinary.slippers.run(
                            ["worker", "--until-empty", "--lease", "3", "--poll", "0.2", "--concurrency", "2"]
                                + database)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.stderr)") }
            let said = outcomes.map(\.stdout).joined()
            #expect(said.contains("(resumed after \(committedOfKilled) cached pages)"), "\(said)")
            #expect(outcomes.map(\.stderr).joined().contains("taken again"))
            let queue = try await BuiltBinary.slippers.run(["queue", "--json"] + database)
            let rows = try #require(try parsedJSON(queue.stdout) as? [[String: Any]])
            #expect(rows.count == 4)
            #expect(rows.allSatisfy { $0["state"] as? String == "done" })
            for list in lists {
                let export = try await BuiltBinary.slippers.run(["export", list, "--format", "ndjson"] + database)
                #expect(try exportedIDs(export.stdout) == Array(1...itemCount), "\(list)")
            }
            // The killed worker's list: none of its committed pages is asked for again.
            let killedQuery = URLComponents(string: killedList)?.queryItems?.first { $0.name == "list" }?.value
            let pagesAfter = fixture.server.requests.dropFirst(requestsBefore)
                .filter { $0.query["list"] == killedQuery }
                .map { Int($0.query["page"] ?? "") ?? 0 }
            #expect(pagesAfter.allSatisfy { $0 > committedOfKilled }, "\(pagesAfter.prefix(5))")
        }
    }

    @Test func aWorkersPeakMemoryDoesNotGrowWithTheListsItSyncs() async throws {
        // A CA file other than the default makes each list's sync ask for a transport of its own.
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        let environment = FileManager.default.fileExists(atPath: bundle) ? ["SSL_CERT_FILE": bundle] : [:]
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: 100, pageSize: 50) { fixture in
                var peaks: [Int: Int] = [:]
                for lists in [5, 40] {
                    let database = ["--db", server.url(database: try await server.makeDatabase())]
                    let urls = (1...lists).map { fixture.url(query: ["list": String($0)]) }
                    let enqueued = try await BuiltBinary.slippers.run(["enqueue"] + database + urls)
                    #expect(enqueued.status == 0, "\(enqueued.stderr)")
                    let output = try TemporaryDirectory()
                    let worker = try BuiltBinary.slippers.start(
                        ["worker", "--until-empty", "--poll", "0.1"] + database, environment: environment,
                        outputDirectory: output.url)
                    defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
                    await BuiltBinary.waitForExit(of: worker)
                    #expect(worker.terminationStatus == 0)
                    let stdout = try String(contentsOf: output.url.appendingPathComponent("stdout"), encoding: .utf8)
                    #expect(stdout.split(separator: "\n").count == lists, "\(stdout)")
                    peaks[lists] = worker.peakResidentBytes
                }
                // Each list's transport, CA file read and connection pool once held ≈ 1 MB for the process's life.
                let (few, many) = (try #require(peaks[5]), try #require(peaks[40]))
                #expect(few > 0)
                #expect(Double(many) <= Double(few) * 1.2, "peak with 5 lists \(few), with 40 lists \(many)")
            }
        }
    }
}
