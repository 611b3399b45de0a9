import Foundation
import GRDB
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

@Suite struct SQLiteCacheStatsTests {
    @Test func statsCountWhatTheFileHolds() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        let first = Date(timeIntervalSince1970: 1_000_000)
        try store.savePage(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts, now: first)
        try store.savePage(Fixtures.page([3], token: "2", next: nil), at: 1, in: Fixtures.posts, now: first + 60)
        let stats = try store.stats()
        #expect(stats.lists == 1)
        #expect(stats.pages == 2)
        #expect(stats.items == 3)
        #expect(stats.oldestPage == first)
        #expect(stats.newestPage == first + 60)
        #expect(stats.fileSize > 0)
        #expect(stats.itemBytes == Int64([1, 2, 3].map { Fixtures.item($0).json.count }.reduce(0, +)))

        let list = try #require(try store.lists().first)
        #expect(list.pageCount == 2)
        #expect(list.itemCount == 3)
        #expect(list.lastFetchedAt == first + 60)
    }

    @Test func diagnosisFindsPagesWhoseMembershipWasTamperedWith() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1, 2], next: nil), at: 0, in: Fixtures.posts)
        #expect(try store.diagnose().isHealthy)
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in try db.execute(sql: "DELETE FROM page_items WHERE position = 1") }
        let diagnosis = try store.diagnose()
        #expect(!diagnosis.isHealthy)
        #expect(diagnosis.inconsistentPages == [#"page 0 of "GET /posts" lists 1 items but records 2"#])
    }
}
