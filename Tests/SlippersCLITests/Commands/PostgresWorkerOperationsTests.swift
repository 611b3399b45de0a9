import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `slippers worker` as an operator runs it: `/metrics` and `/health` scraped with a real HTTP
/// client during a sync, a `SIGTERM` mid-list, and `queue --watch`; real processes, a real
/// PostgreSQL and the fixture server.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(4)))
struct PostgresWorkerOperationsTests {
    @Test func metricsScrapedDuringASyncCountWhatTheServerServedAndHealthSaysOK() async throws {
        let (itemCount, pageSize) = (1_200, 50)
        try await FleetScene.with(itemCount: itemCount, pageSize: pageSize, delay: .milliseconds(40)) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let list = fixture.url()
            let enqueued = try await BuiltBinary.slippers.run(["enqueue", list, "--concurrency", "1"] + database)
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            let output = try TemporaryDirectory()
            let worker = try BuiltBinary.slippers.start(
                ["worker", "--poll", "0.2", "--metrics", "127.0.0.1:0"] + database, outputDirectory: output.url)
            defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
            let base = try await Self.metricsAddress(in: output.url)
            // During the sync: healthy, and the counters move.
            await fixture.server.waitForRequests(5)
            let health = try await Self.get(base + "/health")
            #expect(health.status == 200, "\(health.body)")
            let during = try await Self.get(base + "/metrics")
            #expect(during.status == 200)
            #expect(during.body.contains("slippers_pages_saved_total"), "\(during.body)")
            // After it: the counters against what the fixture server counted.
            var scraped = ""
            for _ in 0..<600 {
                scraped = try await Self.get(base + "/metrics").body
                if Self.value(of: "slippers_lists_completed_total", in: scraped) == 1 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let pages = itemCount / pageSize
            let served = fixture.server.requests
            #expect(Self.value(of: "slippers_lists_started_total", in: scraped) == 1, "\(scraped)")
            #expect(Self.value(of: "slippers_pages_saved_total", in: scraped) == Double(pages), "\(scraped)")
            #expect(Self.value(of: "slippers_items_saved_total", in: scraped) == Double(itemCount), "\(scraped)")
            #expect(served.count >= pages)
            #expect(
                Self.value(of: "slippers_requests_total", labels: ["status_class=\"2xx\""], in: scraped)
                    == Double(served.count), "\(scraped)")
            #expect(
                Self.value(of: "slippers_page_duration_seconds_count", in: scraped) ?? 0 >= Double(pages), "\(scraped)")
            #expect(Self.value(of: "slippers_received_bytes_total", in: scraped) ?? 0 > 0, "\(scraped)")
            #expect(Self.value(of: "slippers_queue_lists", labels: ["state=\"done\""], in: scraped) != nil)
            // No label holds a path or a query: the origin only.
            let origin = "origin=\"http://127.0.0.1:\(fixture.server.port)\""
            #expect(scraped.contains(origin), "\(scraped)")
            #expect(!scraped.contains("/page"), "\(scraped)")
            kill(worker.processIdentifier, SIGTERM)
            await BuiltBinary.waitForExit(of: worker)
            let said = try String(contentsOf: output.url.appendingPathComponent("stderr"), encoding: .utf8)
            #expect(worker.terminationStatus == 0, "\(said)")
        }
    }

    @Test func aWorkerSentSIGTERMMidListGivesItBackAtOnceAndTheNextWorkerEndsItExact() async throws {
        let itemCount = 3_000
        let lease = 30
        try await FleetScene.with(itemCount: itemCount, pageSize: 50, delay: .milliseconds(40)) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let list = fixture.url()
            let enqueued = try await BuiltBinary.slippers.run(["enqueue", list, "--concurrency", "2"] + database)
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            let (firstOutput, secondOutput) = (try TemporaryDirectory(), try TemporaryDirectory())
            let first = try BuiltBinary.slippers.start(
                ["worker", "--lease", String(lease), "--poll", "0.2"] + database, outputDirectory: firstOutput.url)
            defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
            await fixture.server.waitForRequests(15)
            // The second worker waits beside it: the queue holds nothing else.
            let second = try BuiltBinary.slippers.start(
                ["worker", "--until-empty", "--lease", String(lease), "--poll", "0.1"] + database,
                outputDirectory: secondOutput.url)
            defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }
            try await Task.sleep(for: .milliseconds(500))
            let signalled = ContinuousClock.now
            kill(first.processIdentifier, SIGTERM)
            var takenAfter: Duration?
            while takenAfter == nil, second.isRunning || signalled.duration(to: .now) < .seconds(60) {
                let said = try String(contentsOf: secondOutput.url.appendingPathComponent("stderr"), encoding: .utf8)
                if said.contains("#1 taken again") { takenAfter = signalled.duration(to: .now) }
                try await Task.sleep(for: .milliseconds(20))
            }
            await BuiltBinary.waitForExit(of: first)
            let firstSaid = try String(contentsOf: firstOutput.url.appendingPathComponent("stderr"), encoding: .utf8)
            #expect(first.terminationStatus == 0, "\(firstSaid)")
            #expect(firstSaid.contains("#1: stopped with the worker"), "\(firstSaid)")
            // Taken again once given back, not when the lease ran out.
            let taken = try #require(takenAfter)
            #expect(taken < .seconds(lease), "\(taken)")
            print("the second worker took the list \(taken) after SIGTERM")
            await BuiltBinary.waitForExit(of: second)
            let secondSaid = try String(contentsOf: secondOutput.url.appendingPathComponent("stderr"), encoding: .utf8)
            #expect(second.terminationStatus == 0, "\(secondSaid)")
            let export = try await BuiltBinary.slippers.run(["export", list, "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
            let queue = try await BuiltBinary.slippers.run(["queue", "--json"] + database)
            let rows = try #require(try parsedJSON(queue.stdout) as? [[String: Any]])
            #expect(rows.map { $0["state"] as? String } == ["done"], "\(queue.stdout)")
        }
    }

    @Test func aWorkerWhosePageHangsPastTheGraceIsCancelledGivesTheListBackAndExitsZero() async throws {
        try await FleetScene.with(itemCount: 300, pageSize: 50) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let list = fixture.url()
            let enqueued = try await BuiltBinary.slippers.run(["enqueue", list, "--concurrency", "1"] + database)
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            // The third request on is never answered while the worker runs: its page hangs.
            fixture.server.hold(fromRequest: fixture.server.requestCount + 3)
            let output = try TemporaryDirectory()
            let worker = try BuiltBinary.slippers.start(
                ["worker", "--poll", "0.2", "--shutdown-grace", "1"] + database, outputDirectory: output.url)
            defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
            await fixture.server.waitForRequests(3)
            try await Task.sleep(for: .milliseconds(300))
            let signalled = ContinuousClock.now
            kill(worker.processIdentifier, SIGTERM)
            await BuiltBinary.waitForExit(of: worker)
            let stopped = signalled.duration(to: .now)
            let said = try String(contentsOf: output.url.appendingPathComponent("stderr"), encoding: .utf8)
            #expect(worker.terminationStatus == 0, "\(said)")
            #expect(said.contains("#1: stopped with the worker"), "\(said)")
            // The grace, then the cancellation: not the request's own timeouts (30 s idle, 120 s deadline).
            #expect(stopped < .seconds(15), "\(stopped)")
            // Given back at once: the next worker resumes it and ends it exact.
            fixture.server.release()
            let next = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.1"] + database)
            #expect(next.status == 0, "\(next.stderr)")
            #expect(next.stdout.contains("#1 synced"), "\(next.stdout)")
            let export = try await BuiltBinary.slippers.run(["export", list, "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...300))
        }
    }

    @Test func queueWatchPrintsTheQueueEverySecondWithoutEscapeCodesWhenNotOnATerminal() async throws {
        try await FleetScene.with(itemCount: 60, pageSize: 50) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let enqueued = try await BuiltBinary.slippers.run(["enqueue", fixture.url()] + database)
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            let output = try TemporaryDirectory()
            let watch = try BuiltBinary.slippers.start(["queue", "--watch"] + database, outputDirectory: output.url)
            defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
            var printed = ""
            for _ in 0..<300 where printed.components(separatedBy: "· 1 pending, ").count < 3 {
                try await Task.sleep(for: .milliseconds(50))
                printed = try String(contentsOf: output.url.appendingPathComponent("stdout"), encoding: .utf8)
            }
            kill(watch.processIdentifier, SIGINT)
            await BuiltBinary.waitForExit(of: watch)
            #expect(printed.components(separatedBy: "· 1 pending, ").count >= 3, "\(printed)")
            #expect(!printed.contains("\u{1B}"), "\(printed)")
            #expect(printed.contains(" lag "), "\(printed)")
            #expect(printed.contains("last error"), "\(printed)")
            let refused = try await BuiltBinary.slippers.run(["queue", "--watch", "--json"] + database)
            #expect(refused.status == 64, "\(refused.stderr)")
        }
    }

    /// The `http://host:port` the worker said it serves its metrics on.
    @Test func healthSays503WhilePostgreSQLIsDownAnd200OnceItIsBack() async throws {
        try await FleetScene.with(itemCount: 10, pageSize: 10) { scene in
            let output = try TemporaryDirectory()
            let worker = try BuiltBinary.slippers.start(
                ["worker", "--poll", "0.2", "--metrics", "127.0.0.1:0"] + scene.database, outputDirectory: output.url)
            defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
            let base = try await Self.metricsAddress(in: output.url)
            var healthy = false
            for _ in 0..<100 where !healthy {
                healthy = (try? await Self.get(base + "/health"))?.status == 200
                if !healthy { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(healthy)
            // Down for 4 s: the worker's next look at the queue fails, and /health says so until it is back.
            let restart = Task { try await scene.server.restart(after: .seconds(4)) }
            var statuses: [Int] = []
            for _ in 0..<200 {
                statuses.append((try? await Self.get(base + "/health"))?.status ?? 0)
                if statuses.contains(503), statuses.last == 200 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            try await restart.value
            #expect(statuses.contains(503), "\(statuses)")
            #expect(statuses.last == 200, "\(statuses)")
            kill(worker.processIdentifier, SIGTERM)
            await BuiltBinary.waitForExit(of: worker)
            #expect(worker.terminationStatus == 0)
        }
    }

    static func metricsAddress(in output: URL) async throws -> String {
        for _ in 0..<600 {
            let said = try String(contentsOf: output.appendingPathComponent("stderr"), encoding: .utf8)
            if let range = said.range(of: "metrics on http://"), let end = said[range.upperBound...].firstIndex(of: "/")
            {
                return "http://" + said[range.upperBound..<end]
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CancellationError()
    }

    /// A `GET` of `url` with URLSession: its status and body.
    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The value of the sample `name` whose labels include each of `labels`, summed over the rest.
    static func value(of name: String, labels: [String] = [], in text: String) -> Double? {
        var total: Double?
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard line.hasPrefix(name + " ") || line.hasPrefix(name + "{"),
                labels.allSatisfy({ line.contains($0) }),
                let value = line.split(separator: " ").last.flatMap({ Double($0) })
            else { continue }
            total = (total ?? 0) + value
        }
        return total
    }
}
