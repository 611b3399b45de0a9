import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// Lists whose next page is named by a link the body or the headers give, and lists whose total
/// is only in headers: each syncs exactly with no flag, never taken for one page, never asked past its end.
@Suite struct SyncLinkedListTests {
    @Test func aLinksArrayWithRelNextSyncsExactly() async throws {
        try await RunningFixture.with(itemCount: 1_234, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.ogc)
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 1234 items in 62 pages"), "\(outcome.stdout)")
            #expect(!fixture.server.requests.contains { $0.query["page"] != nil })
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...1_234))
        }
    }

    @Test func aNextPageHeaderOfANoStoreListSyncsExactlyWithTheFlagTheFirstRunNames() async throws {
        var configuration = FixtureServer.Configuration(itemCount: 1_234, pageSize: 50)
        configuration.responseHeaders = ["Cache-Control": "no-store"]
        let server = FixtureServer(configuration: configuration)
        try await server.start()
        do {
            let directory = try TemporaryDirectory()
            let url = server.url(.nextPageHeader).absoluteString
            let first = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(first.status != 0)
            #expect(first.stderrLines.count == 1, "\(first.stderr)")
            #expect(first.stderr.contains("--keep-no-store"), "\(first.stderr)")

            let kept = try await BuiltBinary.slippers.run(["sync", url, "--keep-no-store", "--db", directory.path()])
            #expect(kept.status == 0, "\(kept.stderr)")
            #expect(kept.stdout.contains("synced 1234 items in 25 pages"), "\(kept.stdout)")
            #expect(!server.requests.contains { $0.query["page"] != nil })
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array((1...1_234).reversed()))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func totalsInHeadersAreShownAndNoPageIsAskedPastTheLast() async throws {
        try await RunningFixture.with(itemCount: 1_234, pageSize: 10) { fixture in
            let url = fixture.url(.headerTotals)
            let detect = try await BuiltBinary.slippers.run(["detect", url])
            #expect(detect.status == 0, "\(detect.stderr)")
            let total = detect.stdout.split(separator: "\n").first { $0.hasPrefix("total ") }
            #expect(total?.contains("X-WP-Total") == true, "\(detect.stdout)")

            fixture.server.resetRequests()
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--concurrency", "6", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 1234 items in 124 pages"), "\(outcome.stdout)")
            let pages = fixture.server.requests.map { Int($0.query["page"] ?? "1") ?? 0 }
            #expect(pages.allSatisfy { $0 <= 124 }, "\(pages.filter { $0 > 124 })")
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...1_234))
        }
    }

    /// A first page that says it is the last (no next link) while it counts more items than it holds.
    @Test(arguments: [
        #""next": null, "previous": null, "count": 1234"#,
        #""links": [{"rel": "self", "href": "/x"}], "numberMatched": 1234"#,
    ])
    func aLastPageShortOfItsCountIsIncomplete(members: String) async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/short") { _ in
                let ids = (1...20).map { #"{"id":\#($0)}"# }.joined(separator: ",")
                return .json(#"{"items":[\#(ids)],\#(members)}"#)
            }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/short").absoluteString
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 3, "\(outcome.stdout) \(outcome.stderr)")
            #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        }
    }

    /// A server that ignores every parameter and answers its first page, with a count above it.
    @Test(arguments: [#""numberMatched": 1234"#, #""hitCount": 1234"#, #""meta": {"total_rows": 1234}"#])
    func aFirstPageRepeatedUnderACountAboveItIsNeverOnePage(count: String) async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/stuck") { _ in
                let ids = (1...20).map { #"{"id":\#($0)}"# }.joined(separator: ",")
                return .json(#"{"rows":[\#(ids)],\#(count)}"#)
            }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/stuck").absoluteString
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status != 0, "\(outcome.stdout)")
            #expect(!outcome.stdout.contains("one page"), "\(outcome.stdout)")
            #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        }
    }
}
