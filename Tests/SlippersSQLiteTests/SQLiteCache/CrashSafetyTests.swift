import Foundation
import GRDB
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// A writer killed with SIGKILL at random points never leaves a damaged file, a partial page, or a gap.
@Suite struct CrashSafetyTests {
    @Test func killingTheWriterAtRandomPointsLosesNoCommittedPageAndLeavesNoPartialOne() async throws {
        let directory = try TemporaryDirectory()
        try await blocking { try Self.killRepeatedly(path: directory.path()) }
    }

    private static func killRepeatedly(path: String) throws {
        let size = 30
        var committed = 0
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<12 {
            let child = try StoreWriterProcess.start(path: path, list: "crash", pages: 400, size: size)
            usleep(UInt32.random(in: 20_000...150_000, using: &generator))
            StoreWriterProcess.kill(child)

            let queue = try DatabaseQueue(path: path)
            #expect(try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
            try queue.close()

            let store = try SQLiteCache(path: path)
            guard let info = try store.list("crash") else {
                // Killed before its first commit: there is nothing to find, and nothing was lost.
                #expect(committed == 0)
                continue
            }
            // Pages of the current generation are contiguous from 0 and the resume token follows the last one.
            let current = try store.pages(in: "crash").filter { !$0.isSuperseded }
            #expect(current.map(\.index) == Array(0..<current.count))
            if let last = current.last, !info.endReached { #expect(info.resumeToken == last.nextToken) }
            try ConcurrencyTests.checkWholePages(store, key: "crash", size: size)
            #expect(try store.diagnose().isHealthy)
            // A run never loses what an earlier run committed: the generation only grows, and
            // within a generation the page count only grows.
            let progress = info.generation * 1000 + info.currentPageCount
            #expect(progress >= committed)
            committed = progress
            try store.close()
        }
        #expect(committed > 0)
    }
}
