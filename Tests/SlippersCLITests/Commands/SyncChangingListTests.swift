import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// `sync` of lists that change on every request: a newest-first page-number list with a count
/// (Django REST framework's default), where an item is inserted at the top, one removed and one
/// edited at random; and oldest-first lists, where the new item goes to the end, so the total holds
/// while the items after a removed one move up.
@Suite struct SyncChangingListTests {
    @Test(arguments: [1, 2, 3] as [UInt64], [1, 4])
    func noItemOnTheServerFromTheFirstRequestToTheLastIsMissing(seed: UInt64, concurrency: Int) async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            fixture.server.setChurn(FixtureServer.Churn(seed: seed))
            // Answers that take their time in a random order, so that pages read ahead are answered out of order.
            fixture.server.injectRandomly([(.delay(.milliseconds(15)), 0.5)], seed: seed)
            let before = Set(fixture.server.listedIDs)
            let directory = try TemporaryDirectory()
            let url = fixture.url(.drf)
            let result = try await BuiltBinary.slippers.run([
                "sync", url, "--db", directory.path(), "--concurrency", String(concurrency),
            ])
            let after = Set(fixture.server.listedIDs)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("the list changed while it was read"), "\(result.stdout)")

            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            let cached = Set(try exportedIDs(export.stdout))
            // No id comes back once removed: an id listed before the first request and after the last was listed throughout.
            let throughout = before.intersection(after)
            #expect(throughout.subtracting(cached).sorted() == [], "\(result.stdout)")
        }
    }

    @Test func aPostgreSQLCacheMissesNoItemOfAListThatChangesWhileItIsRead() async throws {
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
                fixture.server.setChurn(FixtureServer.Churn(seed: 11))
                fixture.server.injectRandomly([(.delay(.milliseconds(15)), 0.5)], seed: 11)
                let before = Set(fixture.server.listedIDs)
                let database = server.url(database: try await server.makeDatabase())
                let url = fixture.url(.drf)
                let result = try await BuiltBinary.slippers.run(["sync", url, "--db", database, "--concurrency", "4"])
                let after = Set(fixture.server.listedIDs)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.contains("the list changed while it was read"), "\(result.stdout)")
                let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson", "--db", database])
                #expect(before.intersection(after).subtracting(try exportedIDs(export.stdout)).sorted() == [])
            }
        }
    }

    @Test func aListThatOnlyGrowsAtItsTopIsReadOnceInOrder() async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            fixture.server.setChurn(FixtureServer.Churn(deletesPerRequest: 0, editsPerRequest: 0, seed: 1))
            let before = Set(fixture.server.listedIDs)
            let directory = try TemporaryDirectory()
            let result = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.drf), "--db", directory.path(), "--concurrency", "1",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            // Every page moved one item down: an id repeated at each boundary, nothing hidden. The new
            // items at the top are read again from the first page, until a page brings nothing new.
            #expect(
                result.stdout.contains("the list changed while it was read; read 2 pages again"), "\(result.stdout)")
            #expect(fixture.server.requestCount <= 2_000 / 50 + 3)
            let export = try await BuiltBinary.slippers.run([
                "export", fixture.url(.drf), "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(before.subtracting(try exportedIDs(export.stdout)).isEmpty)
        }
    }

    @Test func aListThatShrinksWhileItIsReadInOrderIsReadAgain() async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            fixture.server.setChurn(FixtureServer.Churn(insertsPerRequest: 0, deletesPerRequest: 2, seed: 7))
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.drf), ["--concurrency", "1"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("again and found"), "\(result.stdout)")
            #expect(missing == [])
        }
    }

    @Test func aListThatHoldsStillIsNotReadAgain() async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let result = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.drf), "--db", directory.path(), "--concurrency", "4",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("changed while it was read"), "\(result.stdout)")
            #expect(fixture.server.requestCount == 2_000 / 50)
            // Read several pages at once, the list's last page is read right after the first, before the pages between.
            #expect(fixture.server.requests.map { $0.query["page"] }.prefix(2) == [nil, "40"])
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func anOldestFirstOffsetListReadInOrderMissesNoItem(seed: UInt64) async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            fixture.server.setChurn(FixtureServer.Churn(newItems: .atTheEnd, seed: seed))
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.offset), ["--concurrency", "1", "--page-size", "50"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("the list changed while it was read"), "\(result.stdout)")
            // Every page after the first is asked for from the item before it.
            let overlapping = fixture.server.requests.filter { $0.query["limit"] == "51" }
            #expect(overlapping.count >= 2_000 / 50 - 1)
            #expect(missing == [])
        }
    }

    @Test(arguments: [1, 2] as [UInt64])
    func anOldestFirstLimitOffsetListOfNextURLsReadInOrderMissesNoItem(seed: UInt64) async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            // Django REST framework's LimitOffsetPagination: next URLs that advance ?offset= by ?limit=.
            fixture.server.setChurn(FixtureServer.Churn(newItems: .atTheEnd, seed: seed))
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.next), ["--concurrency", "1"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("the list changed while it was read"), "\(result.stdout)")
            let overlapping = fixture.server.requests.filter { $0.query["limit"] == "51" }
            #expect(overlapping.count >= 2_000 / 50 - 1)
            #expect(missing == [])
        }
    }

    @Test(arguments: [1, 2] as [UInt64], [1, 4])
    func anOldestFirstOffsetListReadAtAnyConcurrencyMissesNoItem(seed: UInt64, concurrency: Int) async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            fixture.server.setChurn(
                FixtureServer.Churn(insertsPerRequest: 2, deletesPerRequest: 2, newItems: .atTheEnd, seed: seed))
            fixture.server.injectRandomly([(.delay(.milliseconds(15)), 0.5)], seed: seed)
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.offset), ["--concurrency", String(concurrency), "--page-size", "50"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("the list changed while it was read"), "\(result.stdout)")
            #expect(missing == [])
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func anOldestFirstPageNumberListReadInOrderIsReadAgainFromItsEnd(seed: UInt64) async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            fixture.server.setChurn(FixtureServer.Churn(newItems: .atTheEnd, seed: seed))
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.drf), ["--concurrency", "1"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stdout.contains("the list changed while it was read; read 40 pages again"), "\(result.stdout)")
            #expect(fixture.server.requestCount == 2 * 2_000 / 50)
            #expect(missing == [])
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64], [4, 6])
    func anOldestFirstPageNumberListReadAtOnceMissesNoItem(seed: UInt64, concurrency: Int) async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            fixture.server.setChurn(FixtureServer.Churn(newItems: .atTheEnd, seed: seed))
            fixture.server.injectRandomly([(.delay(.milliseconds(15)), 0.5)], seed: seed)
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.drf), ["--concurrency", String(concurrency)])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("the list changed while it was read"), "\(result.stdout)")
            #expect(missing == [], "\(result.stdout)")
        }
    }

    @Test(arguments: [5, 10, 20] as [Int])
    func aPageNumberListReadAtOnceThatChangesOnceWithoutATraceMissesNoItem(unchangedRequests: Int) async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            // Every item below the top moves up by one, across every boundary not read yet.
            fixture.server.setChurn(Self.topRemovedOnce(after: unchangedRequests))
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.drf), ["--concurrency", "6"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("the list changed while it was read"), "\(result.stdout)")
            #expect(missing == [], "\(result.stdout)")
        }
    }

    @Test(arguments: [5, 10, 20] as [Int])
    func aNewestFirstPageNumberListReadAtOnceThatChangesOnceMissesNoItem(unchangedRequests: Int) async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            // One item added at the top and one removed below it, once: the total and the last page hold.
            var churn = FixtureServer.Churn(editsPerRequest: 0, seed: UInt64(unchangedRequests))
            (churn.unchangedRequests, churn.changingRequests) = (unchangedRequests, 1)
            fixture.server.setChurn(churn)
            fixture.server.injectRandomly([(.delay(.milliseconds(15)), 0.5)], seed: 3)
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.drf), ["--concurrency", "6", "--newest-first"])
            #expect(result.status == 0, "\(result.stderr)")
            // Items moved down hide only where an id repeats at another boundary: the walk then reads the list again.
            #expect(missing == [], "\(result.stdout)")
        }
    }

    @Test func anOffsetListReadAtOnceChecksTheItemBeforeEveryPage() async throws {
        try await RunningFixture.with(itemCount: 1_000, pageSize: 50) { fixture in
            fixture.server.setChurn(Self.topRemovedOnce(after: 1))
            let (result, missing) = try await syncWhileChanging(
                fixture.server, fixture.url(.offset), ["--concurrency", "6", "--page-size", "50"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("the list changed while it was read"), "\(result.stdout)")
            #expect(missing == [], "\(result.stdout)")
            // The second page is asked for alone; once the server honoured it, every page after it asks for the item before it.
            let walk = fixture.server.requests.dropFirst().prefix(1_000 / 50 - 1)
            #expect(walk.allSatisfy { $0.query["limit"] == "51" }, "\(walk.map(\.query))")
        }
    }

    @Test func aPageNumberListThatHoldsStillIsReadAgainFromItsEndUnlessToldNot() async throws {
        try await RunningFixture.with(itemCount: 1_000, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let result = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.drf), "--db", directory.path(), "--concurrency", "1",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("changed while it was read"), "\(result.stdout)")
            #expect(fixture.server.requestCount == 2 * 1_000 / 50)

            fixture.server.resetRequests()
            let other = try TemporaryDirectory()
            let told = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.drf), "--db", other.path(), "--concurrency", "1", "--no-reverse-read",
            ])
            #expect(told.status == 0, "\(told.stderr)")
            #expect(fixture.server.requestCount == 1_000 / 50)
        }
    }

    @Test func anOffsetListThatHoldsStillCostsNoRequestForTheItemBeforeEachPage() async throws {
        try await RunningFixture.with(itemCount: 1_000, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.offset)
            let result = try await BuiltBinary.slippers.run([
                "sync", url, "--db", directory.path(), "--concurrency", "1", "--page-size", "50",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("changed while it was read"), "\(result.stdout)")
            #expect(fixture.server.requestCount == 1_000 / 50)
            let asked = fixture.server.requests.map { [$0.query["offset"] ?? "", $0.query["limit"] ?? ""] }
            // The first page is the one read to detect the style.
            #expect(asked.dropFirst().prefix(2) == [["49", "51"], ["99", "51"]])
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...1_000))
        }
    }

    @Test func anOffsetListThatCapsItsLimitIsAskedPlainlyFromThen() async throws {
        var configuration = FixtureServer.Configuration(itemCount: 1_000, pageSize: 50)
        configuration.maxLimit = 50
        let server = FixtureServer(configuration: configuration)
        try await server.start()
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let url = server.url(.offset).absoluteString
        let result = try await BuiltBinary.slippers.run([
            "sync", url, "--db", directory.path(), "--concurrency", "1", "--page-size", "50",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("changed while it was read"), "\(result.stdout)")
        // The second page is asked for once with the item before it, capped, then plainly as every page after it.
        #expect(server.requestCount == 1_000 / 50 + 1)
        #expect(server.requests.filter { $0.query["limit"] == "51" }.count == 1)
        let export = try await BuiltBinary.slippers.run([
            "export", url, "--format", "ndjson", "--db", directory.path(),
        ])
        #expect(try exportedIDs(export.stdout) == Array(1...1_000))
    }

    @Test(arguments: [4, 8] as [Int])
    func anOffsetListThatCapsItsLimitReadAtOnceMissesNoItem(unchangedRequests: Int) async throws {
        var configuration = FixtureServer.Configuration(itemCount: 1_000, pageSize: 50)
        configuration.maxLimit = 50
        let server = FixtureServer(configuration: configuration)
        try await server.start()
        defer { Task { await server.stop() } }
        server.setChurn(Self.topRemovedOnce(after: unchangedRequests))
        let (result, missing) = try await syncWhileChanging(
            server, server.url(.offset).absoluteString, ["--concurrency", "6", "--page-size", "50"])
        #expect(result.status == 0, "\(result.stderr)")
        // The server cuts the second page asked for with the item before it: its last page is then read
        // before the pages between, at no request more than the one the cut cost.
        let offsets = server.requests.map { $0.query["offset"] ?? "0" }
        #expect(offsets.prefix(4) == ["0", "49", "50", "950"], "\(offsets)")
        #expect(missing == [])
    }

    @Test func anOffsetListThatRoundsItsOffsetToWholePagesIsAskedPlainlyFromThen() async throws {
        try await RunningFixture.with { fixture in
            // A server that serves whole pages of 10: an offset is rounded down to one, the limit honoured.
            fixture.server.script("/rounded") { request in
                let offset = (Int(request.query["offset"] ?? "0") ?? 0) / 10 * 10
                let limit = Int(request.query["limit"] ?? "10") ?? 10
                let ids = (offset + 1..<min(95, offset + limit) + 1).map { #"{"id":\#($0)}"# }
                return .json(#"{"results":[\#(ids.joined(separator: ","))],"offset":\#(offset),"total":95}"#)
            }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/rounded").absoluteString
            let result = try await BuiltBinary.slippers.run([
                "sync", url, "--style", "offset", "--page-size", "10", "--concurrency", "1", "--db", directory.path(),
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("changed while it was read"), "\(result.stdout)")
            // The second page's first item is the list's first: it is asked for again plainly, as every page after it.
            #expect(fixture.server.requests.filter { $0.query["limit"] == "11" }.count == 1)
            // The request that detected the list, its 10 pages, and the second page's request with the item before it.
            #expect(fixture.server.requestCount == 1 + 10 + 1)
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...95))
        }
    }

    /// A change made once, after `requests` requests for the list's pages: its first item removed and one
    /// added at its end. The total holds, no id repeats, and every item below the top moves up by one.
    private static func topRemovedOnce(after requests: Int) -> FixtureServer.Churn {
        var churn = FixtureServer.Churn(editsPerRequest: 0, newItems: .atTheEnd, seed: 1)
        (churn.unchangedRequests, churn.changingRequests, churn.removals) = (requests, 1, .atTheTop)
        return churn
    }

    /// Syncs `url` into a new file with `options` while the server's list changes, and returns the
    /// command's outcome and the ids the server listed both before and after the sync that the
    /// file does not hold.
    private func syncWhileChanging(_ server: FixtureServer, _ url: String, _ options: [String]) async throws
        -> (result: BuiltBinary.Outcome, missing: [Int])
    {
        let before = Set(server.listedIDs)
        let directory = try TemporaryDirectory()
        let result = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()] + options)
        let after = Set(server.listedIDs)
        let export = try await BuiltBinary.slippers.run([
            "export", url, "--format", "ndjson", "--db", directory.path(),
        ])
        return (result, before.intersection(after).subtracting(try exportedIDs(export.stdout)).sorted())
    }
}
