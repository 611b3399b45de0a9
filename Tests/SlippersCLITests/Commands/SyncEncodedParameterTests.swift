import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// `sync` and `detect` of lists whose page and size are members of a rison or JSON object in
/// one query parameter (`?q=(page:0,page_size:25)`): with no flag, and with `--page-param q.page`.
@Suite struct SyncEncodedParameterTests {
    static let rison = "(\(FixtureServer.risonFilter),order_column:id,page:0,page_size:25)"
    static let json = #"{\#(FixtureServer.jsonOrder),"page":1,"per_page":20}"#

    @Test func aRisonAndAJSONPageSyncToTheServersCountWithNoFlag() async throws {
        try await RunningFixture.with(itemCount: 123, pageSize: 10) { fixture in
            for (route, q, pages) in [(FixtureServer.Route.rison, Self.rison, 5), (.jsonQuery, Self.json, 7)] {
                let directory = try TemporaryDirectory()
                fixture.server.resetRequests()
                let url = fixture.url(route, query: ["q": q])
                let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
                #expect(outcome.status == 0, "\(route): \(outcome.stderr)")
                #expect(outcome.stdout.contains("synced 123 items in \(pages) pages"), "\(route): \(outcome.stdout)")
                #expect(fixture.server.requestCount <= pages + 1, "\(route)")
                let export = try await BuiltBinary.slippers.run([
                    "export", url, "--format", "ndjson", "--db", directory.path(),
                ])
                #expect(try exportedIDs(export.stdout) == Array(1...123), "\(route)")
                let lists = try await BuiltBinary.slippers.run([
                    "lists", "--json", "--db", directory.path(),
                ])
                #expect(lists.stdout.contains(#""total" : 123"#), "\(lists.stdout)")

                let detect = try await BuiltBinary.slippers.run(["detect", url])
                #expect(detect.status == 0, "\(detect.stderr)")
                #expect(detect.stdout.contains("q.page"), "\(detect.stdout)")
            }
        }
    }

    @Test func thePageParameterNamedByHandGoesInsideTheObject() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.rison, query: ["q": "(order_column:id,page:0)"])
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--page-param", "q.page", "--page-size-param", "q.page_size", "--page-size", "30",
                "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 95 items in 4 pages"), "\(outcome.stdout)")
            #expect(
                fixture.server.requests.contains { $0.query["q"] == "(order_column:id,page:3,page_size:30)" })
        }
    }
}
