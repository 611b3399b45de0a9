import Foundation
import GRDB
import LocalAPI
import Slippers
import SlippersKit
import SlippersSQLite
import SlippersStorage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Offline writes: how soon an open list shows a change, and how fast the outbox is sent.
///
/// Write to visible: a `Pager` following the cache (`followCache()`) over a cached
/// list; each round queues a merge patch of an item of its window and times until a
/// snapshot shows it. Once through the pager's own store (GRDB's observation of its
/// commits), once through another connection to the file, as another process writes
/// (`PRAGMA data_version`, polled every 50 ms). The baseline, in the same run, is a GRDB
/// `ValueObservation` of one row written by hand: a write, then the value observed.
///
/// Idle: the CPU a process spends per second while 5 pagers follow its cache and nothing
/// changes. Memory: the peak RSS of a child process that pushes 1 000 and 10 000 pending writes
/// (at full size; a twentieth and a half of the network figures' items), against each other:
/// the outbox is read a batch at a time, so ten times the writes should not grow it.
///
/// Outbox replay: writes queued against the fixture API 20 ms away, sent by `OutboxPush`,
/// against a hand-written loop that sends the same `PATCH`es one after another with
/// `URLSession` and stores each answer in SQLite.
enum WriteFigures {
    static let writes = FigureGroup(
        id: "offline-writes",
        summary: "ours: write-to-visible latency in a following pager, and the outbox sent through 20 ms"
    ) { context in
        let directory = try context.makeDirectory("offline-writes")
        let rounds = context.settings.rounds
        let ours = try writeToVisible(directory: directory, rounds: rounds, throughAnotherConnection: false)
        let otherProcess = try writeToVisible(
            directory: directory, rounds: max(20, rounds / 5), throughAnotherConnection: true)
        let baseline = try observedRow(directory: directory, rounds: rounds)
        let replay = try outboxReplay(directory: directory, writes: context.sizes.networkItems / 100)
        let (fewWrites, manyWrites) = (context.sizes.networkItems / 20, context.sizes.networkItems / 2)
        let fewMemory = try pushMemory(directory: directory, writes: fewWrites, executable: context.executablePath)
        let manyMemory = try pushMemory(directory: directory, writes: manyWrites, executable: context.executablePath)
        let idleCPU = try idleFollowingCPU(directory: directory, pagers: 5, seconds: 5)
        return [
            Figure(
                name: "write to visible in a following pager (p50), through its store", measured: ours,
                against: ("GRDB ValueObservation of the row, by hand", baseline), target: .information),
            Figure(
                name: "write to visible in a following pager (p99), through its store", unit: .milliseconds,
                value: ours.percentile(99).milliseconds, baseline: "GRDB ValueObservation of the row (p99)",
                baselineValue: baseline.percentile(99).milliseconds, target: .valueAtMost(100)),
            Figure(
                name: "write to visible in a following pager (p50), by another connection (another process)",
                unit: .milliseconds, value: otherProcess.median.milliseconds, baseline: nil, baselineValue: nil,
                target: .information),
            Figure(
                name: "write to visible in a following pager (p99), by another connection (another process)",
                unit: .milliseconds, value: otherProcess.percentile(99).milliseconds, baseline: nil,
                baselineValue: nil, target: .valueAtMost(100)),
            Figure(
                name: "outbox replay: \(replay.writes) writes, 20 ms away, OutboxPush", unit: .milliseconds,
                value: replay.ours.milliseconds, baseline: "sequential hand-written PATCH client",
                baselineValue: replay.baseline.milliseconds, target: .ratioAtMost(1.25)),
            Figure(
                name: "5 idle pagers following the cache: CPU per second (ms)", unit: .milliseconds,
                value: idleCPU.following,
                baseline: "the process idle without them", baselineValue: idleCPU.idle, target: .valueAtMost(10)),
            Figure(
                name: "outbox push: peak RSS of a process sending \(manyWrites) pending writes", unit: .megabytes,
                value: manyMemory, baseline: "the same, \(fewWrites) pending writes", baselineValue: fewMemory,
                target: .ratioAtMost(1.25)),
        ]
    }

    /// Times, round by round, from queueing a change of an item in a following pager's window to a snapshot that shows it.
    private static func writeToVisible(directory: URL, rounds: Int, throughAnotherConnection: Bool) throws
        -> Measurement
    {
        let path = newCachePath("pager-\(throughAnotherConnection).sqlite", in: directory)
        let (store, list) = try generatedList(at: path)
        let writer = throughAnotherConnection ? try SQLiteCache(path: path) : store
        return try Blocking.run {
            let pager = Pager<BenchItem>(
                cache: store, source: NotModifiedSource(), list: list,
                configuration: PagerConfiguration(policy: .cacheOnly))
            await pager.start()
            var snapshots = await pager.states().makeAsyncIterator()
            let following = Task { await pager.followCache() }
            defer { following.cancel() }
            let keys = await pager.state.items.map(\.itemKey)
            let clock = ContinuousClock()
            var samples: [Duration] = []
            for round in 0..<rounds + 2 {
                let key = keys[round % keys.count]
                let title = "round \(round)"
                let start = clock.now
                let write = try writer.writeLocally(
                    WriteRequest(
                        kind: .merge, json: Data(#"{"title": "\#(title)"}"#.utf8), url: "http://bench.invalid/\(key)"),
                    type: list.itemType, key: key)
                while let state = await snapshots.next(), !state.items.contains(where: { $0.title == title }) {}
                if round >= 2 { samples.append(start.duration(to: clock.now)) }
                try writer.acknowledgeWrite(write.id)
            }
            return Measurement(samples: samples)
        }
    }

    /// Times, round by round, from writing a row to a GRDB `ValueObservation` of it seeing the value.
    private static func observedRow(directory: URL, rounds: Int) throws -> Measurement {
        let path = newCachePath("observed.sqlite", in: directory)
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, json BLOB NOT NULL)")
            try db.execute(sql: "INSERT INTO items (id, json) VALUES (1, ?)", arguments: [Data("{}".utf8)])
        }
        let observation = ValueObservation.tracking { db in
            try Data.fetchOne(db, sql: "SELECT json FROM items WHERE id = 1")
        }
        return try Blocking.run {
            var values = observation.values(in: pool).makeAsyncIterator()
            _ = try await values.next()
            let clock = ContinuousClock()
            var samples: [Duration] = []
            for round in 0..<rounds + 2 {
                let json = Data(#"{"title": "round \#(round)"}"#.utf8)
                let start = clock.now
                try await pool.write { db in
                    try db.execute(sql: "UPDATE items SET json = ? WHERE id = 1", arguments: [json])
                }
                while let value = try await values.next(), value != json {}
                if round >= 2 { samples.append(start.duration(to: clock.now)) }
            }
            return Measurement(samples: samples)
        }
    }

    /// Sends `writes` writes to the fixture API 20 ms away, by OutboxPush and by a hand-written loop.
    private static func outboxReplay(directory: URL, writes: Int) throws -> (
        writes: Int, ours: Duration, baseline: Duration
    ) {
        var configuration = FixtureServer.Configuration(itemCount: writes, pageSize: 50)
        configuration.latency = .milliseconds(20)
        let server = FixtureServer(configuration: configuration)
        try Blocking.run { try await server.start() }
        defer { Blocking.runIgnoringErrors { await server.stop() } }
        let path = newCachePath("outbox.sqlite", in: directory)
        guard let base = ServerConfiguration(baseURL: server.baseURL),
            let template = ItemURLTemplate(listURL: server.url(.page))
        else { throw ServerError.noHost }
        let client = APIClient(configuration: base)
        return try Blocking.run {
            let store = try await queuedOutbox(of: writes, at: path, from: server, through: client)
            let clock = ContinuousClock()
            let start = clock.now
            let report = try await OutboxPush(cache: store, client: client).run()
            let ours = start.duration(to: clock.now)
            precondition(report.acknowledged == writes, "the push acknowledged \(report.acknowledged) of \(writes)")

            // The baseline: PATCH each item with URLSession, store each answer in SQLite, one after another.
            let database = try DatabaseQueue(path: directory.appendingPathComponent("baseline-outbox.sqlite").path)
            try await database.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, json BLOB)")
            }
            let session = URLSession(configuration: .default)
            let baselineStart = clock.now
            for id in 1...writes {
                guard let url = URL(string: template.url(for: .integer(id))) else { continue }
                var request = URLRequest(url: url)
                request.httpMethod = "PATCH"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(#"{"title": "by hand \#(id)"}"#.utf8)
                let (body, _) = try await session.data(for: request)
                try await database.write { db in
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO items (id, json) VALUES (?, ?)", arguments: [id, body])
                }
            }
            return (writes, ours, baselineStart.duration(to: clock.now))
        }
    }

    /// A new cache at `path` (a ``newCachePath(_:in:)``) holding the fixture's page-number list,
    /// with a title change of each of its first `writes` items queued.
    static func queuedOutbox(of writes: Int, at path: String, from server: FixtureServer, through client: APIClient)
        async throws -> SQLiteCache
    {
        guard let template = ItemURLTemplate(listURL: server.url(.page)) else { throw ServerError.noHost }
        let store = try SQLiteCache(path: path)
        let plan = try await SyncPlan.make(storage: store, client: client, url: server.url(.page))
        var sync = ListSync(storage: store, source: plan.source, list: plan.list)
        sync.concurrency = AdaptiveConcurrency(maximum: 6)
        try await sync.run()
        for id in 1...writes {
            try store.writeLocally(
                WriteRequest(
                    kind: .merge, json: Data(#"{"title": "pushed \#(id)"}"#.utf8), url: template.url(for: .integer(id))),
                type: plan.list.itemType, key: .integer(id))
        }
        return store
    }

    /// The path of a cache file named `name` in `directory`, with any earlier file of that name (and its WAL) removed.
    static func newCachePath(_ name: String, in directory: URL) -> String {
        let path = directory.appendingPathComponent(name).path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return path
    }

    /// A new cache at `path` holding a generated list of 20 pages of 50 items, and that list.
    static func generatedList(at path: String) throws -> (store: SQLiteCache, list: ListDescriptor) {
        let store = try SQLiteCache(path: path)
        let list = ListDescriptor(key: "GET /followed", of: BenchItem.self)
        try GeneratedList.fill(
            Repository<BenchItem>(cache: store), key: list.key, pageCount: 20, pageSize: 50,
            progress: Progress(isEnabled: false))
        return (store, list)
    }

    enum ServerError: Error { case noHost }
}
