import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// `sync --incremental FIELD --since-param PARAM`: the first run walks the list, later runs ask
/// only for what changed since the watermark less the lookback and merge it by id.
@Suite(.timeLimit(.minutes(4)))
struct SyncIncrementalTests {
    static let incremental = ["--incremental", "updated_at", "--since-param", "updated_since"]

    /// A fixture server with an ``UpdatedList`` at `/updated`.
    static func withList(
        count: Int, pageSize: Int, _ body: (FixtureServer, UpdatedList, String) async throws -> Void
    ) async throws {
        try await RunningFixture.with { fixture in
            let list = UpdatedList(count: count, pageSize: pageSize)
            list.install(on: fixture.server)
            try await body(fixture.server, list, fixture.server.url(path: "/updated").absoluteString)
        }
    }

    /// The JSON objects of an NDJSON export, or of the list's items, for comparing them.
    static func objects(_ lines: [String]) throws -> [NSDictionary] {
        try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
        }
    }

    /// Checks that the cache exports exactly the server's items, versions and all, in id order.
    static func expectExportEqualsTheServer(
        _ list: UpdatedList, url: String, db: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + db)
        #expect(export.status == 0, "\(export.stderr)", sourceLocation: sourceLocation)
        let exported = try objects(export.stdout.split(separator: "\n").map(String.init))
        let served = try objects(list.allJSON)
        #expect(exported.count == served.count, sourceLocation: sourceLocation)
        #expect(exported == served, sourceLocation: sourceLocation)
    }

    static func text(_ seconds: Double) -> String {
        UpdatedList.text(of: UpdatedList.changeTime.addingTimeInterval(seconds))
    }

    @Test func theFirstRunWalksTheListAndLaterRunsAskSinceTheWatermarkLessTheLookbackAndMergeByID() async throws {
        try await Self.withList(count: 300, pageSize: 50) { server, list, url in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            list.edit([5], at: UpdatedList.changeTime)
            let first = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stdout.contains("end reached, 300 items cached; watermark updated_at = \(Self.text(0))"),
                "\(first.stdout)")
            #expect(server.requestCount == 6)
            #expect(server.requests.allSatisfy { $0.query["updated_since"] == nil })

            // Two items edited, three added; the lookback (5 minutes) reads item 5 again.
            list.edit([10, 200], at: UpdatedList.changeTime.addingTimeInterval(60))
            list.add(3, at: UpdatedList.changeTime.addingTimeInterval(120))
            server.resetRequests()
            let second = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(
                second.stdout.contains(
                    "3 new, 3 updated — 303 items cached; watermark updated_at = \(Self.text(120))"),
                "\(second.stdout)")
            #expect(server.requests.map { $0.query["updated_since"] } == [Self.text(-300)])
            try await Self.expectExportEqualsTheServer(list, url: url, db: db)
            let get = try await BuiltBinary.slippers.run(["get", url, "200", "--json"] + db)
            #expect(get.stdout.contains("Edited item 200, version 2"), "\(get.stdout)")

            // Nothing changed: one request, nothing new, the watermark stays.
            server.resetRequests()
            let third = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
            #expect(third.status == 0, "\(third.stderr)")
            #expect(third.stdout.contains("0 new, 6 updated"), "\(third.stdout)")
            #expect(third.stdout.contains("watermark updated_at = \(Self.text(120))"))
            #expect(server.requests.map { $0.query["updated_since"] } == [Self.text(-180)])
            try await Self.expectExportEqualsTheServer(list, url: url, db: db)
        }
    }

    @Test func theLookbackCatchesAnItemCommittedLateThatNoLookbackMisses() async throws {
        try await Self.withList(count: 120, pageSize: 50) { server, list, url in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            list.edit([5], at: UpdatedList.changeTime)
            let first = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
            #expect(first.status == 0, "\(first.stderr)")
            // Item 7 was written two minutes before the watermark, and committed after the first run.
            list.edit([7], at: UpdatedList.changeTime.addingTimeInterval(-120))
            server.resetRequests()
            let none = try await BuiltBinary.slippers.run(["sync", url, "--lookback", "0s"] + db + Self.incremental)
            #expect(none.status == 0, "\(none.stderr)")
            #expect(none.stdout.contains("0 new, 1 updated"), "\(none.stdout)")
            #expect(server.requests.map { $0.query["updated_since"] } == [Self.text(0)])
            let missed = try await BuiltBinary.slippers.run(["get", url, "7", "--json"] + db)
            #expect(!missed.stdout.contains("version 2"), "\(missed.stdout)")

            server.resetRequests()
            let lookback = try await BuiltBinary.slippers.run(
                ["sync", url, "--lookback", "3m"] + db + Self.incremental)
            #expect(lookback.status == 0, "\(lookback.stderr)")
            #expect(lookback.stdout.contains("0 new, 2 updated"), "\(lookback.stdout)")
            #expect(server.requests.map { $0.query["updated_since"] } == [Self.text(-180)])
            try await Self.expectExportEqualsTheServer(list, url: url, db: db)
        }
    }

    @Test func aRunKilledMidwayKeepsTheOldWatermarkAndTheNextRunResumesItsWindow() async throws {
        try await Self.withList(count: 400, pageSize: 20) { server, list, url in
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let db = ["--db", path]
            list.edit([1], at: UpdatedList.changeTime)
            let first = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
            #expect(first.status == 0, "\(first.stderr)")

            // 150 changes: 8 pages of 20.
            list.add(100, at: UpdatedList.changeTime.addingTimeInterval(60))
            list.edit(Array(stride(from: 2, through: 400, by: 8)), at: UpdatedList.changeTime.addingTimeInterval(90))
            server.resetRequests()
            server.inject(.delay(.milliseconds(30)), count: 10_000)
            server.hold(fromRequest: 4)
            let output = try TemporaryDirectory()
            let killed = try BuiltBinary.slippers.start(
                ["sync", url] + db + Self.incremental, outputDirectory: output.url)
            await server.waitForRequests(4)
            kill(killed.processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: killed)
            #expect(killed.terminationReason == .uncaughtSignal)

            let store = try SQLiteCache(path: path, mode: .readOnly)
            let key = try #require(try store.lists().map(\.key).first { !$0.hasSuffix("#changes") })
            let kept = try #require(try store.watermark(of: key))
            #expect(kept.value == Self.text(0))
            #expect(kept.pendingSince == Self.text(-300))
            #expect(try store.list(key)?.itemCount == 400)
            let saved = try store.list(key + "#changes")?.currentPageCount ?? 0
            #expect(saved < 8)
            let requestsOfFirstRun = server.requestCount
            server.release()
            server.clearFaults()

            let resumed = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stdout.contains("100 new, 51 updated"), "\(resumed.stdout)")
            #expect(resumed.stdout.contains("500 items cached; watermark updated_at = \(Self.text(90))"))
            // The resumed run asks from where the killed one did, after the pages it saved.
            let asked = server.requests.dropFirst(requestsOfFirstRun)
            #expect(asked.allSatisfy { $0.query["updated_since"] == Self.text(-300) })
            #expect(asked.allSatisfy { Int($0.query["page"] ?? "1") ?? 0 > saved })
            let after = try #require(try store.watermark(of: key))
            #expect(after == SyncWatermark(field: "updated_at", value: Self.text(90)))
            #expect(try store.list(key + "#changes") == nil)
            try await Self.expectExportEqualsTheServer(list, url: url, db: db)
        }
    }

    @Test func changesThatMoveWhileReadAreReadAgainAndMergedWhole() async throws {
        try await Self.withList(count: 300, pageSize: 20) { server, list, url in
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let db = ["--db", path]
            list.edit([300], at: UpdatedList.changeTime)
            let first = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
            #expect(first.status == 0, "\(first.stderr)")

            // 41 changes, 3 pages; item 10 changes while page 2 is asked for, and joins page 1, already
            // read. The total grew with no id repeated: the changes are read again, and item 10 found.
            list.edit(Array(stride(from: 100, through: 300, by: 5)), at: UpdatedList.changeTime.addingTimeInterval(60))
            server.resetRequests()
            server.hold(fromRequest: 2)
            let output = try TemporaryDirectory()
            let moving = try BuiltBinary.slippers.start(
                ["sync", url] + db + Self.incremental, outputDirectory: output.url)
            await server.waitForRequests(2)
            list.edit([10], at: UpdatedList.changeTime.addingTimeInterval(120))
            server.release()
            await BuiltBinary.waitForExit(of: moving)
            let told = try String(contentsOf: output.url.appendingPathComponent("stdout"), encoding: .utf8)
            #expect(moving.terminationStatus == 0)
            #expect(told.contains("0 new, 42 updated"), "\(told)")
            #expect(told.contains("watermark updated_at = \(Self.text(120))"), "\(told)")
            let store = try SQLiteCache(path: path, mode: .readOnly)
            let key = try #require(try store.lists().map(\.key).first { !$0.hasSuffix("#changes") })
            #expect(try store.watermark(of: key) == SyncWatermark(field: "updated_at", value: Self.text(120)))
            try await Self.expectExportEqualsTheServer(list, url: url, db: db)
        }
    }

    @Test func anInitialValueMakesTheFirstRunAskOnlyForWhatChangedSinceIt() async throws {
        try await Self.withList(count: 200, pageSize: 50) { server, list, url in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            list.edit([3, 4, 150], at: UpdatedList.changeTime)
            let first = try await BuiltBinary.slippers.run(
                ["sync", url, "--initial", Self.text(-60)] + db + Self.incremental)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("synced 3 items changed since \(Self.text(-60))"), "\(first.stdout)")
            #expect(first.stdout.contains("watermark updated_at = \(Self.text(0))"))
            // The first request detects the list's style; the walk asks from the initial value.
            #expect(server.requests.dropFirst().map { $0.query["updated_since"] } == [Self.text(-60)])
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + db)
            #expect(try exportedIDs(export.stdout) == [3, 4, 150])
        }
    }

    @Test func aFieldNoItemHasFailsAndAListWithoutWatermarkIsWalkedAgain() async throws {
        try await Self.withList(count: 60, pageSize: 50) { server, _, url in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let typo = ["--incremental", "updatedAt", "--since-param", "updated_since"]
            let first = try await BuiltBinary.slippers.run(["sync", url] + db + typo)
            #expect(first.status == 1)
            #expect(first.stderr.contains("None of the 60 items"), "\(first.stderr)")
            #expect(first.stderr.contains("has a member updatedAt"))
            // Without a watermark, the next run cannot ask for changes: it walks the list again.
            server.resetRequests()
            let again = try await BuiltBinary.slippers.run(["sync", url] + db + typo)
            #expect(again.status == 1)
            #expect(server.requestCount == 2)
            #expect(server.requests.allSatisfy { $0.query["updated_since"] == nil })
        }
    }

    @Test func incrementalOptionsAreCheckedTogether() async throws {
        let noParameter = try await BuiltBinary.slippers.run(["sync", "http://127.0.0.1:1/a", "--incremental", "x"])
        #expect(noParameter.status == 64)
        #expect(noParameter.stderr.contains("--incremental needs --since-param"), "\(noParameter.stderr)")
        let alone = try await BuiltBinary.slippers.run(["sync", "http://127.0.0.1:1/a", "--lookback", "1m"])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("--since-param, --lookback and --initial go with --incremental"))
    }

    @Test(.enabled(if: PostgresServer.isAvailable))
    func anIncrementalSyncOnPostgreSQLMergesAsOnAFile() async throws {
        try await PostgresServer.with { postgres in
            try await Self.withList(count: 150, pageSize: 50) { server, list, url in
                let database = try await postgres.makeDatabase()
                let db = ["--db", postgres.url(database: database)]
                list.edit([5], at: UpdatedList.changeTime)
                let first = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
                #expect(first.status == 0, "\(first.stderr)")
                list.edit([20], at: UpdatedList.changeTime.addingTimeInterval(60))
                list.add(2, at: UpdatedList.changeTime.addingTimeInterval(60))
                server.resetRequests()
                let second = try await BuiltBinary.slippers.run(["sync", url] + db + Self.incremental)
                #expect(second.status == 0, "\(second.stderr)")
                #expect(
                    second.stdout.contains(
                        "2 new, 2 updated — 152 items cached; watermark updated_at = \(Self.text(60))"),
                    "\(second.stdout)")
                #expect(server.requests.map { $0.query["updated_since"] } == [Self.text(-300)])
                try await Self.expectExportEqualsTheServer(list, url: url, db: db)
            }
        }
    }

    @Test(.enabled(if: PostgresServer.isAvailable))
    func aWorkerRunsAnEnqueuedIncrementalListAsSyncDoes() async throws {
        try await PostgresServer.with { postgres in
            try await Self.withList(count: 120, pageSize: 50) { server, list, url in
                let db = ["--db", postgres.url(database: try await postgres.makeDatabase())]
                list.edit([5], at: UpdatedList.changeTime)
                for round in 0..<2 {
                    if round == 1 {
                        list.edit([60], at: UpdatedList.changeTime.addingTimeInterval(60))
                        list.add(1, at: UpdatedList.changeTime.addingTimeInterval(60))
                        server.resetRequests()
                    }
                    // A list queued again with the same options is pending again.
                    let enqueued = try await BuiltBinary.slippers.run(["enqueue", url] + db + Self.incremental)
                    #expect(enqueued.status == 0, "\(enqueued.stderr)")
                    let worker = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.1"] + db)
                    #expect(worker.status == 0, "\(worker.stderr)")
                }
                #expect(server.requests.map { $0.query["updated_since"] } == [Self.text(-300)])
                try await Self.expectExportEqualsTheServer(list, url: url, db: db)
            }
        }
    }
}
