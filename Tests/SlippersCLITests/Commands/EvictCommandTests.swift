import Foundation
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

@Suite struct EvictCommandTests {
    @Test func removesTheListsOlderThanAnAge() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path(), postsFetchedAt: Date().addingTimeInterval(-10 * 86_400))
        let outcome = try await BuiltBinary.slippers.run(["evict", "--older-than", "7d", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "evicted 1 list, 3 pages, 150 items\n")
        let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
        #expect(try store.lists().map(\.key) == ["GET /users"])
    }

    @Test func removesOneListAndReportsInJSON() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run([
            "evict", "--list", "GET /users", "--json", "--db", directory.path(),
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "{\n  \"items\" : 3,\n  \"lists\" : 1,\n  \"pages\" : 1\n}\n")
    }

    @Test func verboseLogsWhatWasRemovedOnStderr() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run([
            "--verbose", "evict", "--list", "GET /users", "--db", directory.path(),
        ])
        #expect(outcome.status == 0)
        #expect(
            outcome.stderr
                == "slippers: info: evicted items=3 lists=1 pages=1 reason=list GET /users\n")
    }

    @Test func removesTheUnreferencedItems() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let store = try SQLiteCache(path: directory.path())
        try store.saveItem(RawItem(key: .integer(7), json: Data(#"{"id":7}"#.utf8)), type: "Loose")
        try store.close()
        let outcome = try await BuiltBinary.slippers.run(["evict", "--unreferenced", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "evicted 0 lists, 0 pages, 1 item\n")
    }

    @Test(arguments: [
        ["evict"], ["evict", "--unreferenced", "--list", "x"], ["evict", "--older-than", "7x"],
        ["evict", "--older-than", "7d", "--unreferenced"],
    ])
    func takesExactlyOneWellFormedChoice(arguments: [String]) async throws {
        let outcome = try await BuiltBinary.slippers.run(arguments)
        #expect(outcome.status == 64)
        #expect(!outcome.stderr.isEmpty)
    }

    @Test func anUnknownListChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let before = try contents(of: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["evict", "--list", "nope", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == [#"slippers: No list "nope" in the cache"#])
        #expect(try contents(of: directory.path()) == before)
    }
}
