import Foundation
import SlippersSQLite
import SlippersTestSupport
import Testing

@Suite struct DemoCommandTests {
    @Test func tellsTheWholeStoryAndExitsZero() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("demo.sqlite")
        let outcome = try await BuiltBinary.slippers.run(["demo", "--db", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty)
        let steps = outcome.stdoutLines.filter { $0.first?.isNumber == true }
        #expect(steps.count == 5)
        guard steps.count == 5 else { return }
        #expect(steps[0].hasPrefix("1. Synced 500 items in 10 pages from http://127.0.0.1:"))
        #expect(steps[0].contains("(style detected: pageNumber)"))
        #expect(steps[1] == "2. Second pass: 500 items in 10 pages from the cache, 0 network requests")
        #expect(steps[2].hasPrefix("3. Server offline: the pager still shows the 500 cached items; "))
        #expect(steps[2].contains("Cannot connect to the server"))
        #expect(steps[3].contains("continued at page 5 in a new run: 16 more pages, 0 of the first 4 fetched again"))
        #expect(steps[4].hasPrefix("5. Refresh: 3 new items at the top (ids 503, 502, 501); "))
        #expect(steps[4].hasSuffix("now 503 items, no duplicates"))

        // The kept cache holds what the report says.
        let store = try SQLiteCache(path: path, mode: .readOnly)
        let lists = try store.lists()
        #expect(lists.map(\.itemType) == ["Comment", "Post"])
        #expect(lists.allSatisfy { $0.endReached })
    }

    @Test func refusesToOverwriteAFile() async throws {
        let directory = try TemporaryDirectory()
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: directory.path()))
        let outcome = try await BuiltBinary.slippers.run(["demo", "--db", directory.path()])
        #expect(outcome.status == 64)
        #expect(try contents(of: directory.path()) == Data("keep me".utf8))
    }
}
