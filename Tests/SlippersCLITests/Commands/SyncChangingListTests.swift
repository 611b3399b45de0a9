import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// `sync` of a newest-first page-number list with a count (Django REST framework's default) that
/// changes on every request: an item inserted at the top, one removed and one edited at random.
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
            let before = Set(fixture.server.listedIDs)
            let directory = try TemporaryDirectory()
            let url = fixture.url(.drf)
            let result = try await BuiltBinary.slippers.run([
                "sync", url, "--db", directory.path(), "--concurrency", "1",
            ])
            let after = Set(fixture.server.listedIDs)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("again and found"), "\(result.stdout)")
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(before.intersection(after).subtracting(try exportedIDs(export.stdout)).sorted() == [])
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
        }
    }
}
