import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// Several `slippers sync` processes on one list in one PostgreSQL database: one walks the list
/// under its lease while the others fetch its pages ahead (page numbers) or wait (a cursor), and
/// all report the finished list; a worker killed while it holds the lease is followed from its
/// committed prefix.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(4)))
struct PostgresFleetCommandTests {
    @Test func fourProcessesOnOneNewPageNumberListDivideItsPagesAndEachEndsWithTheListExactly() async throws {
        let itemCount = 2_000
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: itemCount, pageSize: 50) { fixture in
                fixture.server.inject(.delay(.milliseconds(30)), count: 10_000)
                let name = try await server.makeDatabase()
                // A schema other than the user's name: every session of the workers finds its tables in it.
                let database = ["--db", server.url(database: name, query: "schema=fleet")]
                let url = fixture.url()
                let outcomes = try await syncAtOnce(4, ["sync", url, "--concurrency", "1"] + database)
                for outcome in outcomes {
                    #expect(outcome.status == 0, "\(outcome.stderr)")
                    #expect(
                        outcome.stdout.contains("end reached, \(itemCount) items cached")
                            || outcome.stdout.contains("(40 pages, \(itemCount) items); nothing fetched"),
                        "\(outcome.stdout)")
                }
                // Each page after the second by one worker only; the first and the second (asked to
                // check the style) once more for each worker that detected the style.
                let pages = fixture.server.requests.map { Int($0.query["page"] ?? "1") ?? 0 }
                #expect(pages.filter { $0 > 2 }.count == 38, "\(pages.sorted())")
                #expect(pages.filter { $0 == 2 }.count <= 4, "\(pages.sorted())")
                #expect(Set(pages) == Set(1...40))
                #expect(fixture.server.requestCount <= 40 + 4 + 3)
                // The lease holder committed pages the waiting workers fetched.
                let fetchedAhead = outcomes.map { count(in: $0.stdout, before: " fetched ahead for another worker") }
                let fetchedByOthers = outcomes.map { count(in: $0.stdout, before: " fetched by other workers") }
                #expect(fetchedAhead.reduce(0, +) > 0, "\(outcomes.map(\.stdout))")
                #expect(fetchedAhead.reduce(0, +) == fetchedByOthers.reduce(0, +), "\(outcomes.map(\.stdout))")
                let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
                #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
                let left = try await server.psql("SELECT count(*) FROM fleet.shared_pages", database: name)
                #expect(left == "0")
            }
        }
    }

    @Test func fourProcessesOnOneNewCursorListWaitForTheOneWalkingItAndEachEndWithTheListExactly() async throws {
        let itemCount = 1_000
        try await FleetScene.with(itemCount: itemCount, pageSize: 50, delay: .milliseconds(20)) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let url = fixture.url(.cursor)
            let outcomes = try await syncAtOnce(4, ["sync", url] + database)
            for outcome in outcomes {
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(
                    outcome.stdout.contains("end reached, \(itemCount) items cached")
                        || outcome.stdout.contains("(20 pages, \(itemCount) items); nothing fetched"),
                    "\(outcome.stdout)")
                #expect(!outcome.stdout.contains("fetched ahead"))
            }
            // A cursor names only the page after the last one read: one worker walks the list (each
            // other worker asked for pages 1 and 2 to detect and check the style).
            #expect(fixture.server.requestCount <= 20 + 4 + 3)
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
        }
    }

    @Test func aWorkerKilledWhileFetchingPagesAheadLeavesThemToTheLeaseHolder() async throws {
        let itemCount = 3_000
        // 60 pages 200 ms away, two at a time: 6 s for the second process to start and stage pages on a loaded machine.
        try await FleetScene.with(itemCount: itemCount, pageSize: 50, delay: .milliseconds(200)) { scene in
            let (server, fixture, name, database) = (scene.server, scene.fixture, scene.name, scene.database)
            let url = fixture.url()
            let arguments = ["sync", url, "--concurrency", "2"] + database
            let holderOutput = try TemporaryDirectory()
            let holder = try BuiltBinary.slippers.start(arguments, outputDirectory: holderOutput.url)
            defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
            _ = try await committedPages(atLeast: 1, in: name, on: server)
            let helperOutput = try TemporaryDirectory()
            let helper = try BuiltBinary.slippers.start(arguments, outputDirectory: helperOutput.url)
            defer { if helper.isRunning { kill(helper.processIdentifier, SIGKILL) } }
            // Killed once it has staged pages and holds claims on others.
            var staged = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while staged < 2, holder.isRunning, ContinuousClock.now < deadline {
                staged =
                    Int(
                        try await server.psql(
                            "SELECT count(*) FROM slippers.shared_pages WHERE state = 'staged'", database: name))
                    ?? 0
                if staged < 2 { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(staged >= 2, "the second process staged \(staged) pages before the list ended")
            kill(helper.processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: helper)
            await BuiltBinary.waitForExit(of: holder)
            let stdout = try String(contentsOf: holderOutput.url.appendingPathComponent("stdout"), encoding: .utf8)
            let stderr = try String(contentsOf: holderOutput.url.appendingPathComponent("stderr"), encoding: .utf8)
            #expect(holder.terminationStatus == 0, "\(stderr)")
            #expect(stdout.contains("end reached, \(itemCount) items cached"), "\(stdout)")
            #expect(stdout.contains("fetched by other workers"), "\(stdout)")
            // A page the killed worker was fetching is fetched again by the lease holder: at most its two.
            let pages = fixture.server.requests.map { Int($0.query["page"] ?? "1") ?? 0 }
            #expect(Set(pages) == Set(1...60))
            #expect(pages.filter { $0 > 1 }.count <= 59 + 2, "\(pages.sorted())")
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
        }
    }

    @Test func pagesFetchedAheadForARunStoppedByMaxPagesAreCommittedByTheNextNotFetchedAgain() async throws {
        let itemCount = 1_000
        // The first run's ten pages take 5 s: time for the second process to start and wait on a loaded machine.
        try await FleetScene.with(itemCount: itemCount, pageSize: 50, delay: .milliseconds(500)) { scene in
            let (server, fixture, name, database) = (scene.server, scene.fixture, scene.name, scene.database)
            let url = fixture.url()
            let firstOutput = try TemporaryDirectory()
            let first = try BuiltBinary.slippers.start(
                ["sync", url, "--concurrency", "1", "--max-pages", "10"] + database,
                outputDirectory: firstOutput.url)
            defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
            _ = try await committedPages(atLeast: 1, in: name, on: server)
            let second = try await BuiltBinary.slippers.run(["sync", url, "--concurrency", "2"] + database)
            await BuiltBinary.waitForExit(of: first)
            let firstStdout = try String(
                contentsOf: firstOutput.url.appendingPathComponent("stdout"), encoding: .utf8)
            #expect(firstStdout.contains("stopped after --max-pages 10"), "\(firstStdout)")
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("end reached, \(itemCount) items cached"), "\(second.stdout)")
            #expect(second.stdout.contains("fetched ahead for another worker"), "\(second.stdout)")
            // The pages staged beyond the first run's tenth page are the second run's, not asked for again.
            let pages = fixture.server.requests.map { Int($0.query["page"] ?? "1") ?? 0 }
            #expect(pages.filter { $0 > 1 }.sorted() == Array(2...20), "\(pages.sorted())")
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
            let left = try await server.psql("SELECT count(*) FROM slippers.shared_pages", database: name)
            #expect(left == "0")
        }
    }

    @Test func workersAskingForPagesOfAnotherSizeShareNoPageWithTheLeaseHolder() async throws {
        let itemCount = 1_000
        try await FleetScene.with(itemCount: itemCount, pageSize: 20, delay: .milliseconds(20)) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            // Filed under one list (the page size is not part of its key), asked for otherwise: each
            // process detects its own style, and pages of 50 must never be committed as pages of 20.
            let outcomes = try await withThrowingTaskGroup(of: BuiltBinary.Outcome.self) { group in
                for size in ["20", "50"] {
                    let url = fixture.url(.page, query: ["per_page": size])
                    group.addTask {
                        try await BuiltBinary.slippers.run(["sync", url, "--concurrency", "1"] + database)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for outcome in outcomes {
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(!outcome.stdout.contains("fetched ahead"), "\(outcome.stdout)")
                #expect(!outcome.stdout.contains("fetched by other workers"), "\(outcome.stdout)")
            }
            let export = try await BuiltBinary.slippers.run(
                ["export", fixture.url(.page, query: ["per_page": "20"]), "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
        }
    }

    @Test func aWaiterThatPlannedAnotherPageSizeDoesNotContinueTheKilledHoldersPages() async throws {
        let itemCount = 1_000
        try await FleetScene.with(itemCount: itemCount, pageSize: 20, delay: .milliseconds(40)) { scene in
            let (server, fixture, name, database) = (scene.server, scene.fixture, scene.name, scene.database)
            // Two new syncs of one list at once, each detecting its own page size.
            let commands = ["20", "50"].map {
                ["sync", fixture.url(.page, query: ["per_page": $0]), "--concurrency", "1"] + database
            }
            let outputs = try commands.map { _ in try TemporaryDirectory() }
            let processes = try zip(commands, outputs).map {
                try BuiltBinary.slippers.start($0, outputDirectory: $1.url)
            }
            defer { for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            _ = try await committedPages(atLeast: 2, in: name, on: server)
            func stderr(_ index: Int) -> String {
                (try? String(contentsOf: outputs[index].url.appendingPathComponent("stderr"), encoding: .utf8))
                    ?? ""
            }
            var waiter: Int?
            for _ in 0..<500 where waiter == nil {
                waiter = (0..<2).first { stderr($0).contains("waiting for another worker") }
                if waiter == nil { try await Task.sleep(for: .milliseconds(10)) }
            }
            let waiting = try #require(waiter)
            kill(processes[1 - waiting].processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: processes[1 - waiting])
            await BuiltBinary.waitForExit(of: processes[waiting])
            if processes[waiting].terminationStatus != 0 {
                // It had planned the list before the killed worker started it: it says so, and a rerun resumes it.
                #expect(stderr(waiting).contains("was started meanwhile by another worker"), "\(stderr(waiting))")
                let rerun = try await BuiltBinary.slippers.run(commands[waiting])
                #expect(rerun.status == 0, "\(rerun.stderr)")
            }
            let export = try await BuiltBinary.slippers.run(
                ["export", fixture.url(.page, query: ["per_page": "20"]), "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
        }
    }

    /// Waits until the database's list has `count` committed pages (at most a minute) and returns how many it has.
    private func committedPages(atLeast count: Int, in database: String, on server: PostgresServer) async throws
        -> Int
    {
        var committed = 0
        for _ in 0..<3_000 where committed < count {
            // The schema is there once the first process has opened the database.
            committed =
                (try? await server.psql("SELECT count(*) FROM slippers.pages", database: database)).flatMap {
                    Int($0)
                } ?? 0
            if committed < count { try await Task.sleep(for: .milliseconds(20)) }
        }
        return committed
    }

    /// Runs `count` processes of `arguments` at once and returns their outcomes.
    private func syncAtOnce(_ count: Int, _ arguments: [String]) async throws -> [BuiltBinary.Outcome] {
        try await withThrowingTaskGroup(of: BuiltBinary.Outcome.self) { group in
            for _ in 0..<count {
                group.addTask { try await BuiltBinary.slippers.run(arguments) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The number of pages a summary line gives before `suffix`, such as "(12 pages fetched ahead …)"; 0 without.
    private func count(in line: String, before suffix: String) -> Int {
        guard let end = line.range(of: suffix) else { return 0 }
        let words = line[..<end.lowerBound].split(separator: "(").last?.split(separator: " ") ?? []
        return words.first.flatMap { Int($0) } ?? 0
    }

    @Test func aWorkerKilledHoldingTheLeaseIsFollowedFromItsCommittedPrefixNotFromPage1() async throws {
        let itemCount = 3_000
        try await FleetScene.with(itemCount: itemCount, pageSize: 50, delay: .milliseconds(40)) { scene in
            let (server, fixture, name, database) = (scene.server, scene.fixture, scene.name, scene.database)
            let url = fixture.url()
            // The fifth request from now on waits for the release: the run cannot reach the end before the kill.
            fixture.server.hold(fromRequest: fixture.server.requestCount + 5)
            let output = try TemporaryDirectory()
            let first = try BuiltBinary.slippers.start(
                ["sync", url, "--concurrency", "1"] + database, outputDirectory: output.url)
            // Never left running when the test stops early.
            defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
            var committed = try await committedPages(atLeast: 2, in: name, on: server)
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
