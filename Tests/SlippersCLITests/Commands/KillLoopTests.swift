import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// Commands killed with SIGKILL at random moments, again and again: the file stays sound and nothing is lost.
@Suite struct KillLoopTests {
    /// The ids a list holds, in order, read as another process would.
    private static func ids(in key: String, at path: String) throws -> [Int]? {
        let store = try SQLiteCache(path: path, mode: .readOnly)
        defer { try? store.close() }
        guard try store.list(key) != nil else { return nil }
        var ids: [Int] = []
        try store.forEachItem(in: key) { item in
            if case .integer(let id) = item.key { ids.append(id) }
        }
        return ids
    }

    /// Whether `PRAGMA integrity_check` and the cache's own checks pass.
    private static func isHealthy(_ path: String) throws -> Bool {
        let store = try SQLiteCache(path: path, mode: .readOnly)
        defer { try? store.close() }
        return try store.diagnose().isHealthy
    }

    /// Starts `arguments`, kills the process after `delay` if it still runs, and waits for it.
    ///
    /// With `server`, the delay counts from the first request the process sends it, so that
    /// the kill lands while the list is being paged, not while the process is starting.
    ///
    /// - returns: Whether the kill landed (the process was still running).
    private static func run(
        _ arguments: [String], killingAfter delay: Duration, countingFromARequestTo server: FixtureServer? = nil
    ) async throws -> Bool {
        let output = try TemporaryDirectory()
        let requestsBefore = server?.requestCount ?? 0
        let process = try BuiltBinary.slippers.start(arguments, outputDirectory: output.url)
        if let server {
            let startDeadline = ContinuousClock.now + .seconds(30)
            while process.isRunning, server.requestCount == requestsBefore, ContinuousClock.now < startDeadline {
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        let deadline = ContinuousClock.now + delay
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        let landed = process.isRunning
        if landed { kill(process.processIdentifier, SIGKILL) }
        await BuiltBinary.waitForExit(of: process)
        return landed && process.terminationReason == .uncaughtSignal
    }

    @Test func syncKilled25TimesAtRandomMomentsEndsWithEveryIdOnceAndNoCommittedPageFetchedTwice() async throws {
        let itemCount = 20_000
        let pageSize = 50
        try await RunningFixture.with(itemCount: itemCount, pageSize: pageSize) { fixture in
            // Some latency per page, so that 25 kills land before the 400 pages are through: sync asks
            // for 6 pages at once by default, so 60 ms a page goes as fast as 10 ms one at a time.
            fixture.server.inject(.delay(.milliseconds(60)), count: 1_000_000)
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let url = fixture.url()
            var generator = SystemRandomNumberGenerator()
            var kills = 0
            var attempts = 0
            var committed = 0
            var refetched: [Int] = []
            while kills < 25, attempts < 100 {
                attempts += 1
                let before = fixture.server.requestCount
                let delay = Duration.milliseconds(Int.random(in: 0...200, using: &generator))
                // No answer from a random request on: however slow the machine, a run commits at most
                // the pages before it, and the kill lands while the server holds the rest.
                fixture.server.hold(fromRequest: before + Int.random(in: 1...12, using: &generator))
                let landed = try await Self.run(
                    ["sync", url, "--db", path], killingAfter: delay, countingFromARequestTo: fixture.server)
                fixture.server.release()
                if landed { kills += 1 }
                guard FileManager.default.fileExists(atPath: path) else { continue }
                #expect(try Self.isHealthy(path), "after kill \(kills)")
                // Every page this run asked for lies after the pages committed before it (numbers start at 1).
                let asked = fixture.server.requests.dropFirst(before).compactMap { $0.query["page"].flatMap(Int.init) }
                refetched += asked.filter { $0 <= committed }
                let list = try SQLiteCache(path: path, mode: .readOnly).list(url)
                committed = list?.currentPageCount ?? 0
                #expect(list?.endReached != true, "the list ended before 25 kills; slow it down")
            }
            #expect(kills >= 25)
            #expect(refetched.isEmpty, "committed pages fetched again: \(refetched)")

            let before = fixture.server.requestCount
            let last = try await BuiltBinary.slippers.run(["sync", url, "--db", path])
            #expect(last.status == 0, "\(last.stderr)")
            let asked = fixture.server.requests.dropFirst(before).compactMap { $0.query["page"].flatMap(Int.init) }
            #expect(asked.allSatisfy { $0 > committed })
            #expect(try Self.ids(in: url, at: path) == Array(1...itemCount))
            #expect(try Self.isHealthy(path))
            print(
                "kill loop: \(kills) kills of sync in \(attempts) runs; \(committed) of 400 pages committed before the last run"
            )
        }
    }

    @Test func aSearchedListKilledMidSyncKeepsItsIndexAgreeingWithItsItems() async throws {
        try await RunningFixture.with(itemCount: 5_000, pageSize: 50) { fixture in
            fixture.server.inject(.delay(.milliseconds(30)), count: 1_000_000)
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let url = fixture.url()
            let first = try await BuiltBinary.slippers.run(["sync", url, "--db", path, "--max-pages", "1"])
            #expect(first.status == 0, "\(first.stderr)")
            // The list's type is searched once, so every page saved from now on writes the index.
            let searched = try await BuiltBinary.slippers.run(["search", url, "x", "--db", path])
            #expect(searched.status == 0, "\(searched.stderr)")
            var generator = SystemRandomNumberGenerator()
            var kills = 0
            var attempts = 0
            while kills < 8, attempts < 40 {
                attempts += 1
                let before = fixture.server.requestCount
                fixture.server.hold(fromRequest: before + Int.random(in: 1...12, using: &generator))
                let delay = Duration.milliseconds(Int.random(in: 0...200, using: &generator))
                let landed = try await Self.run(
                    ["sync", url, "--db", path], killingAfter: delay, countingFromARequestTo: fixture.server)
                fixture.server.release()
                if landed { kills += 1 }
                #expect(try Self.isHealthy(path), "after kill \(kills): the index and the items disagree")
            }
            #expect(kills >= 8)
            let last = try await BuiltBinary.slippers.run(["sync", url, "--db", path])
            #expect(last.status == 0, "\(last.stderr)")
            #expect(try Self.isHealthy(path))
            let store = try SQLiteCache(path: path, mode: .readOnly)
            defer { try? store.close() }
            for id in [1, 2_500, 5_000] {
                let words = FixtureItem.make(id: id).title.split(separator: " ").prefix(3).joined(separator: " ")
                let found = try store.search("\"\(words)\" ", in: .list(url), limit: 1_000)
                #expect(found.contains { $0.key == .integer(id) }, "item \(id) not found by \(words)")
            }
        }
    }

    @Test func vacuumInvalidateAndEvictKilledMidOperationLeaveASoundFileAndLoseNothing() async throws {
        try await RunningFixture.with(itemCount: 20_000, pageSize: 100) { big in
            try await RunningFixture.with(itemCount: 2_000, pageSize: 100) { small in
                let directory = try TemporaryDirectory()
                let path = directory.path()
                let keep = big.url()
                let evictable = small.url(.cursor)
                for url in [keep, evictable] {
                    let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", path])
                    #expect(outcome.status == 0, "\(outcome.stderr)")
                }
                var generator = SystemRandomNumberGenerator()
                var kills: [String: Int] = [:]
                let operations: [(name: String, arguments: [String])] = [
                    ("vacuum", ["vacuum"]), ("invalidate", ["invalidate", "--all"]),
                    ("evict", ["evict", "--list", evictable]),
                ]
                for operation in operations {
                    // How long the operation takes when left alone: the kills land inside that span.
                    let clock = ContinuousClock()
                    let start = clock.now
                    _ = try await Self.run(operation.arguments + ["--db", path], killingAfter: .seconds(30))
                    let span = max(60, Int((clock.now - start) / .milliseconds(1)))
                    var attempts = 0
                    while kills[operation.name, default: 0] < 10, attempts < 60 {
                        attempts += 1
                        if operation.name == "evict", try Self.ids(in: evictable, at: path) == nil {
                            let outcome = try await BuiltBinary.slippers.run(["sync", evictable, "--db", path])
                            #expect(outcome.status == 0, "\(outcome.stderr)")
                        }
                        let delay = Duration.milliseconds(Int.random(in: 5...span, using: &generator))
                        if try await Self.run(operation.arguments + ["--db", path], killingAfter: delay) {
                            kills[operation.name, default: 0] += 1
                        }
                        #expect(try Self.isHealthy(path), "\(operation.name)")
                        #expect(try Self.ids(in: keep, at: path) == Array(1...20_000), "\(operation.name)")
                        let evicted = try Self.ids(in: evictable, at: path)
                        #expect(evicted == nil || evicted == Array(1...2_000), "\(operation.name)")
                    }
                }
                print("kill loop: kills mid-operation \(kills.sorted { $0.key < $1.key })")
                #expect(kills.values.reduce(0, +) >= 10)
            }
        }
    }
}
