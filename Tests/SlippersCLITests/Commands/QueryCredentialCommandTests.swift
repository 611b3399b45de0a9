import Foundation
import SlippersTestSupport
import Testing

/// A list synced from a URL with a credential in its query: found by the URL as typed, printed masked, kept nowhere.
@Suite struct QueryCredentialCommandTests {
    static let secret = "s3cret-token-77"

    @Test func theListIsFoundByItsTypedURLAndNoOutputOrFileHoldsTheCredential() async throws {
        try await RunningFixture.with(itemCount: 120, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let database = ["--db", directory.path()]
            let url = fixture.url(.page, query: ["access_token": Self.secret])

            let sync = try await BuiltBinary.slippers.run(["sync", url] + database)
            #expect(sync.status == 0, "\(sync.stderr)")
            let sent = fixture.server.requests
            #expect(
                sent.allSatisfy { $0.query["access_token"] == Self.secret },
                "\(sent.filter { $0.query["access_token"] != Self.secret }.map { "\($0.path) \($0.query)" })")
            let lists = try await BuiltBinary.slippers.run(["lists"] + database)
            #expect(lists.stdout.contains("access_token=***"))
            let pages = try await BuiltBinary.slippers.run(["pages", url] + database)
            #expect(pages.status == 0, "\(pages.stderr)")
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...120))
            let missing = try await BuiltBinary.slippers.run(
                ["pages", fixture.url(.offset, query: ["access_token": Self.secret])] + database)
            #expect(missing.status != 0)
            #expect(missing.stderr.contains("access_token=***"))

            for output in [sync, lists, pages, missing] {
                #expect(!output.stdout.contains(Self.secret) && !output.stderr.contains(Self.secret))
            }
            #expect(try directory.filesHolding(Self.secret).isEmpty)
        }
    }
}
