import Foundation
import SlippersSQLite
import SlippersTestSupport
import Testing

@Suite struct VacuumCommandTests {
    @Test func givesSpaceBackAndKeepsTheData() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        _ = try await BuiltBinary.slippers.run(["evict", "--list", "GET /posts", "--db", directory.path()])
        let outcome = try await BuiltBinary.slippers.run(["vacuum", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("vacuumed \(directory.path()): "))
        let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
        #expect(try store.cachedList("GET /users")?.items.count == 3)
    }

    @Test func aMissingFileIsReported() async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run(["vacuum", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == ["slippers: No cache file at \(directory.path())"])
    }
}
