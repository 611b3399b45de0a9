import Foundation
import LocalAPI
import SlippersSQLite
import SlippersTestSupport
import Testing

/// Stock paginators of web frameworks, as the fixture API answers them: each syncs exactly with no
/// flags, spends at most one request beyond its pages, and revalidates without rewriting a page.
@Suite struct SyncStockPaginatorsTests {
    static let routes: [FixtureServer.Route] = [
        .ninjaOffset, .ninjaPage, .smorest, .litestarCursor, .litestarClassic, .contentRange,
    ]

    @Test(arguments: routes)
    func syncsExactlyWithAtMostOneRequestBeyondItsPages(route: FixtureServer.Route) async throws {
        try await RunningFixture.with(itemCount: 123, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(route)
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 0, "\(route): \(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 123 items in 13 pages"), "\(route): \(outcome.stdout)")
            #expect(fixture.server.requestCount <= 13 + 1, "\(route): \(fixture.server.requestCount) requests")
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...123), "\(route)")

            fixture.server.resetRequests()
            let again = try await BuiltBinary.slippers.run(["sync", url, "--revalidate", "--db", directory.path()])
            #expect(again.status == 0, "\(route): \(again.stderr)")
            #expect(again.stdout.contains("13 unchanged, 0 changed, 0 new, 0 removed"), "\(route): \(again.stdout)")
        }
    }

    @Test func xPaginationEndsTheWalkWithNoRequestPastTheEnd() async throws {
        try await RunningFixture.with(itemCount: 100, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run(["sync", fixture.url(.smorest), "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(fixture.server.requestCount == 10)
            #expect(fixture.server.requests.allSatisfy { Int($0.query["page"] ?? "1") ?? 0 <= 10 })
            let lists = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
            #expect(lists.stdout.contains(#""total" : 100"#), "\(lists.stdout)")
        }
    }

    @Test func pageSizeIsSentUnderTheParameterTheListNames() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            // Litestar's cursor list names its size parameter in the body: results_per_page.
            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.litestarCursor), "--page-size", "25", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 95 items in 4 pages"), "\(outcome.stdout)")
            #expect(fixture.server.requests.allSatisfy { $0.query["per_page"] == nil })
            #expect(fixture.server.requests.dropFirst().allSatisfy { $0.query["results_per_page"] == "25" })

            // A list that names no size parameter is not sent one under a guessed name.
            let unnamed = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.ninjaPage), "--page-size", "25", "--db", directory.path(),
            ])
            #expect(unnamed.status == 1)
            #expect(unnamed.stderr.contains("--page-size-param"), "\(unnamed.stderr)")
            let named = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.ninjaPage), "--page-size", "25", "--page-size-param", "page_size",
                "--db", directory.path(),
            ])
            #expect(named.status == 0, "\(named.stderr)")
            #expect(named.stdout.contains("synced 95 items in 4 pages"), "\(named.stdout)")
        }
    }

    @Test func aGetListIsDescribedWithPageAndCursorOptions() async throws {
        try await RunningFixture.with(itemCount: 57, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let cursor = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.litestarCursor), "--cursor-path", "cursor", "--cursor-param", "cursor",
                "--items-path", "items", "--total-path", "total", "--db", directory.path(),
            ])
            #expect(cursor.status == 0, "\(cursor.stderr)")
            #expect(cursor.stdout.contains("synced 57 items in 6 pages"), "\(cursor.stdout)")
            let classic = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.litestarClassic), "--page-param", "current_page", "--page-size-param",
                "page_size", "--page-size", "20", "--db", directory.path(),
            ])
            #expect(classic.status == 0, "\(classic.stderr)")
            #expect(classic.stdout.contains("synced 57 items in 3 pages"), "\(classic.stdout)")
            #expect(fixture.server.requests.contains { $0.query["current_page"] == "3" })
        }
    }

    @Test func detectPrintsTheFlagsThatReproduceWhatItFound() async throws {
        try await RunningFixture.with(itemCount: 57, pageSize: 10) { fixture in
            let outcome = try await BuiltBinary.slippers.run(["detect", fixture.url(.litestarCursor)])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let flags = try #require(outcome.stdoutLines.first { $0.hasPrefix("flags ") })
            #expect(
                flags.hasSuffix(
                    "--cursor-path cursor --cursor-param cursor --page-size-param results_per_page --items-path items"),
                "\(flags)")
            let words = flags.dropFirst("flags".count).split(separator: " ").map(String.init)
            let directory = try TemporaryDirectory()
            let pinned = try await BuiltBinary.slippers.run(
                ["sync", fixture.url(.litestarCursor), "--db", directory.path()] + words)
            #expect(pinned.status == 0, "\(pinned.stderr)")
            #expect(pinned.stdout.contains("synced 57 items in 6 pages"), "\(pinned.stdout)")
        }
    }
}
