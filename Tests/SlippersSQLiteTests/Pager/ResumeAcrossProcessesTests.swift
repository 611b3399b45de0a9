import Foundation
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// Two real processes page the same list: the second continues where the first stopped.
@Suite struct ResumeAcrossProcessesTests {
    /// Runs the pager worker to its end and returns its output lines.
    private func runWorker(path: String, items: Int, pageSize: Int, loads: Int) async throws -> [String] {
        let (status, output) = try await blocking {
            try Self.run(path: path, items: items, pageSize: pageSize, loads: loads)
        }
        #expect(status == 0)
        return output
    }

    private static func run(path: String, items: Int, pageSize: Int, loads: Int) throws -> (Int32, [String]) {
        try Process.runBuiltSibling("PagerWorker", [path, String(items), String(pageSize), String(loads)])
    }

    @Test func aSecondProcessFetchesOnlyThePagesTheFirstHadNot() async throws {
        let directory = try TemporaryDirectory()
        let first = try await runWorker(path: directory.path(), items: 47, pageSize: 5, loads: 3)
        #expect(first == ["fetched 1", "fetched 2", "fetched 3", "fetched 4", "cached 20"])

        let second = try await runWorker(path: directory.path(), items: 47, pageSize: 5, loads: 20)
        #expect(second == ["fetched 5", "fetched 6", "fetched 7", "fetched 8", "fetched 9", "fetched 10", "cached 47"])

        let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
        let list = try #require(try store.cachedList("items"))
        #expect(Fixtures.ids(list.items) == Array(1...47))
        #expect(list.list.endReached)
        #expect(list.list.generation == 1)
    }
}
