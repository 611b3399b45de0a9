import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// Every command finds a list by the URL given to `sync` (query and all) and by its item type's short name.
@Suite struct ListLookupTests {
    @Test func everyCommandFindsAListByItsSyncURLAndItsTypesShortName() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.page, query: ["per_page": "10"])
            let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(sync.status == 0, "\(sync.stderr)")
            for name in [url, "page"] {
                for arguments in [
                    ["pages", name], ["items", name], ["export", name, "--format", "ndjson"], ["get", name, "7"],
                    ["edit", name, "7", "--set", #"{"title": "seen"}"#], ["invalidate", name],
                ] {
                    let outcome = try await BuiltBinary.slippers.run(arguments + ["--db", directory.path()])
                    #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
                }
            }
            let export = try await BuiltBinary.slippers.run(["export", "page", "--db", directory.path()])
            #expect(export.stdout.contains("seen"), "\(export.stdout)")
        }
    }
}
