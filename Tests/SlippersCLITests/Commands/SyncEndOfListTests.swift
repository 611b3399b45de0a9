import Foundation
import LocalAPI
import SlippersSQLite
import SlippersTestSupport
import Testing

/// No request past the end of a list that says where it ends.
@Suite struct SyncEndOfListTests {
    /// `{"data": [10 items], "page": N, "total": 35}`: no page size in the URL or the body.
    private static func scriptTotalOnly(_ server: FixtureServer, total: Int = 35, size: Int = 10) {
        server.script("/items") { request in
            let page = Int(request.query["page"] ?? "1") ?? 1
            let start = (page - 1) * size
            let ids = start < total ? Array(start + 1...min(start + size, total)) : []
            let items = ids.map { #"{"id":\#($0)}"# }.joined(separator: ",")
            return .json(#"{"data":[\#(items)],"page":\#(page),"total":\#(total)}"#)
        }
    }

    @Test(arguments: ["1", "6"])
    func aTotalEndsAPageNumberListWithoutAPageSize(concurrency: String) async throws {
        try await RunningFixture.with { fixture in
            Self.scriptTotalOnly(fixture.server)
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/items").absoluteString
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--concurrency", concurrency, "--no-reverse-read", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("synced 35 items in 4 pages"), "\(outcome.stdout)")
            let pages = fixture.server.requests.compactMap { $0.query["page"] ?? "1" }.sorted()
            #expect(pages == ["1", "2", "3", "4"], "\(pages)")
        }
    }
}
