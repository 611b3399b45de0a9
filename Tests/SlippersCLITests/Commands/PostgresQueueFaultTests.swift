import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// The fleet's queue under faults, with real worker processes and a real PostgreSQL: the server
/// restarted mid-run, then gone for 10 s; a list whose server keeps failing.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(5)))
struct PostgresQueueFaultTests {
    @Test func aRestartAndTenSecondsWithoutPostgreSQLMidRunLoseNothingAndEveryListEndsExact() async throws {
        let itemCount = 3_000
        try await FleetScene.with(
            itemCount: itemCount, pageSize: 50, delay: .milliseconds(25), delayedRequests: 1_000_000
        ) { scene in
            let (server, fixture, database) = (scene.server, scene.fixture, scene.database)
            let lists = (1...6).map { fixture.url(query: ["list": String($0)]) }
            let enqueued = try await BuiltBinary.slippers.run(
                ["enqueue"] + database + lists + ["--concurrency", "1"])
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            let outputs = try (0..<2).map { _ in try TemporaryDirectory() }
            let workers = try outputs.map { output in
                try BuiltBinary.slippers.start(
                    ["worker", "--until-empty", "--lease", "5", "--poll", "0.2"] + database,
                    outputDirectory: output.url)
            }
            // Never left running when the test stops early.
            defer {
                for worker in workers where worker.isRunning { kill(worker.processIdentifier, SIGKILL) }
            }
            await fixture.server.waitForRequests(20)
            try await server.restart()
            await fixture.server.waitForRequests(fixture.server.requestCount + 20)
            try await server.restart(after: .seconds(10))
            for worker in workers { await BuiltBinary.waitForExit(of: worker) }
            let said = try outputs.map {
                try String(contentsOf: $0.url.appendingPathComponent("stderr"), encoding: .utf8)
            }.joined()
            for worker in workers { #expect(worker.terminationStatus == 0, "\(said)") }
            // Whichever the outage met, the queue or a list's sync, it was said in one line, and the
            // lists it stopped were taken again from their committed pages.
            #expect(said.contains("cannot reach the"), "\(said)")
            #expect(said.contains("taken again"), "\(said)")
            #expect(!said.contains(PostgresServer.password))
            let queue = try await BuiltBinary.slippers.run(["queue", "--json"] + database)
            let rows = try #require(try parsedJSON(queue.stdout) as? [[String: Any]])
            #expect(rows.count == 6)
            #expect(rows.allSatisfy { $0["state"] as? String == "done" }, "\(queue.stdout)")
            for list in lists {
                let export = try await BuiltBinary.slippers.run(["export", list, "--format", "ndjson"] + database)
                #expect(try exportedIDs(export.stdout) == Array(1...itemCount), "\(list)")
            }
        }
    }

    @Test func aListWhoseServerKeepsFailingEndsFailedWithItsReasonAndTheOthersGoOn() async throws {
        try await FleetScene.with(itemCount: 120, pageSize: 50) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            // Nothing listens there: the list cannot be reached.
            let unreachable = "http://127.0.0.1:9/nothing"
            let enqueued = try await BuiltBinary.slippers.run(
                ["enqueue"] + database + [unreachable, fixture.url()] + ["--retry-for", "0"])
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            let worker = try await BuiltBinary.slippers.run(
                ["worker", "--until-empty", "--poll", "0.2"] + database)
            #expect(worker.status == 0, "\(worker.stderr)")
            #expect(worker.stderr.contains("#1 failed: "), "\(worker.stderr)")
            #expect(worker.stdout.contains("#2 synced 120 items"), "\(worker.stdout)")
            let queue = try await BuiltBinary.slippers.run(["queue", "--json"] + database)
            let rows = try #require(try parsedJSON(queue.stdout) as? [[String: Any]])
            #expect(rows.map { $0["state"] as? String } == ["failed", "done"])
            #expect((rows[0]["last_error"] as? String)?.isEmpty == false)
            let table = try await BuiltBinary.slippers.run(["queue"] + database)
            #expect(table.stdout.contains("failed"))
        }
    }
}

/// `enqueue` takes `sync`'s options anywhere on its line, and a worker syncs each list as they say.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(4)))
struct EnqueueOptionsTests {
    @Test func optionsAndTheDatabaseGoAnywhereAndTheWorkerSyncsTheListsAsTheySay() async throws {
        try await FleetScene.with(itemCount: 120, pageSize: 50) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let first = fixture.url(query: ["list": "1"])
            let second = fixture.url(query: ["list": "2"])
            let enqueued = try await BuiltBinary.slippers.run(
                ["enqueue", "--max-pages", "1", first] + database + [
                    "--style", "pageNumber", second, "--concurrency", "2",
                ])
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            #expect(enqueued.stdout == "queued #1 \(first)\nqueued #2 \(second)\n")
            let queue = try await BuiltBinary.slippers.run(["queue", "--json"] + database)
            let rows = try #require(try parsedJSON(queue.stdout) as? [[String: Any]])
            let requests = rows.compactMap { $0["request"] as? [String: Any] }
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { ($0["limits"] as? [String: Any])?["max_pages"] as? Int == 1 }, "\(rows)")
            #expect(requests.allSatisfy { ($0["style"] as? [String: Any])?["name"] as? String == "pageNumber" })
            let worker = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.2"] + database)
            #expect(worker.status == 0, "\(worker.stderr)")
            #expect(worker.stdout.contains("#1 synced 50 items in 1 page"), "\(worker.stdout)")
            #expect(worker.stdout.contains("stopped after --max-pages 1"), "\(worker.stdout)")
            let invalid = try await BuiltBinary.slippers.run(["enqueue", first, "--max-pages", "0"] + database)
            #expect(invalid.status == 64)
            #expect(invalid.stderr.contains("--max-pages must be 1 or more"), "\(invalid.stderr)")
        }
    }

    @Test func aListEnqueuedEveryFifteenMinutesIsSyncedThenDueAgainAndTheQueueSaysWhen() async throws {
        try await FleetScene.with(itemCount: 60, pageSize: 50) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let list = fixture.url(query: ["list": "1"])
            let enqueued = try await BuiltBinary.slippers.run(["enqueue", "--every", "15m", list] + database)
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            let before = try await BuiltBinary.slippers.run(["queue"] + database)
            #expect(before.stdout.contains("due"), "\(before.stdout)")
            #expect(before.stdout.contains(" now "), "\(before.stdout)")
            #expect(before.stdout.contains(" 15m "), "\(before.stdout)")
            // The worker syncs the list once and stops: nothing else is due now.
            let worker = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.2"] + database)
            #expect(worker.status == 0, "\(worker.stderr)")
            #expect(worker.stdout.contains("#1 synced 60 items in 2 pages"), "\(worker.stdout)")
            let after = try await BuiltBinary.slippers.run(["queue"] + database)
            #expect(
                ["in 14m", "in 15m", "in 16m", "in 13m"].contains { after.stdout.contains($0) }, "\(after.stdout)")
            let json = try await BuiltBinary.slippers.run(["queue", "--json"] + database)
            let rows = try #require(try parsedJSON(json.stdout) as? [[String: Any]])
            #expect(rows.count == 1)
            #expect(rows.first?["state"] as? String == "pending", "\(rows)")
            #expect(rows.first?["every"] as? Double == 900, "\(rows)")
            #expect(rows.first?["due_at"] is String, "\(rows)")
            let invalid = try await BuiltBinary.slippers.run(["enqueue", "--every", "0m", list] + database)
            #expect(invalid.status == 64)
            #expect(invalid.stderr.contains("--every must be more than 0"), "\(invalid.stderr)")
            // Lists due every second are taken again once due; the one due in 15 minutes is not.
            let often = fixture.url(query: ["list": "2"])
            let fresh = fixture.url(query: ["list": "3"])
            let second = try await BuiltBinary.slippers.run(
                ["enqueue", "--every", "1s", often] + database + ["--every", "1s", "--refresh", fresh])
            #expect(second.status == 0, "\(second.stderr)")
            let first = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.2"] + database)
            #expect(first.stdout.contains("#2 synced 60 items"), "\(first.stdout)")
            try await Task.sleep(for: .milliseconds(1_200))
            let again = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.2"] + database)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("#2 synced 60 items"), "\(again.stdout)")
            #expect(again.stdout.contains("#3 synced 60 items"), "\(again.stdout)")
            #expect(!again.stdout.contains("#1 "), "\(again.stdout)")
        }
    }
}

/// What `enqueue` refuses before it stores anything.
@Suite struct EnqueueRefusalTests {
    @Test func aCredentialInAListsQueryOrAHeaderIsNeverQueued() async throws {
        let database = ["--db", "postgres://nobody@127.0.0.1:1/none"]
        let token = try await BuiltBinary.slippers.run(
            ["enqueue"] + database + ["https://api.example.com/posts?access_token=s3cret"])
        #expect(token.status == 64)
        #expect(token.stderr.contains("access_token=***"))
        #expect(!token.stderr.contains("s3cret"))
        let header = try await BuiltBinary.slippers.run(
            ["enqueue"] + database + ["https://api.example.com/posts", "--header", "Authorization: Bearer x"])
        #expect(header.status == 64)
        #expect(header.stderr.contains("Headers are never queued"))
        let file = try await BuiltBinary.slippers.run(["enqueue", "--db", "x.sqlite", "https://api.example.com/posts"])
        #expect(file.status == 1)
        #expect(file.stderr.contains("enqueue works on a PostgreSQL cache"))
    }
}
