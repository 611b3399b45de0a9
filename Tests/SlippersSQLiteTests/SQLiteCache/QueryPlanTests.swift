import Foundation
import GRDB
import Slippers
import SlippersTestSupport
import Testing

@testable import SlippersSQLite

/// Reading page k must cost the same at any depth: every table is reached through a key, never scanned.
@Suite struct QueryPlanTests {
    @Test func readingAPageUsesAnIndexForEveryTableItTouches() throws {
        let searched = try searchedTables(of: SQLiteCache.pageReadQueries)
        #expect(searched == ["collections", "p", "pi", "i"])
    }

    /// The pager's cold path: the list's head (where its current generation ends), then keyed pages.
    @Test func readingAListsHeadUsesAnIndexForEveryTableItTouches() throws {
        let searched = try searchedTables(of: [SQLiteCache.listHeadSQL])
        #expect(searched == ["c", "p"])
    }

    /// A sync asks whether a page's ids stand on earlier pages: from each item to its pages, never page by page.
    @Test func countingListedItemsGoesFromEachItemToItsPages() throws {
        let plan = try plan(of: SQLiteCache.listedIDsCountSQL(3))
        let pi = try #require(plan.firstIndex { $0.hasPrefix("SEARCH pi USING COVERING INDEX page_items_by_item") })
        let p = try #require(plan.firstIndex { $0.hasPrefix("SEARCH p USING INTEGER PRIMARY KEY") })
        #expect(pi < p, "\(plan)")
    }

    /// Checks the plans of `queries` on a cache of 30 pages of two generations; returns the tables searched.
    private func searchedTables(of queries: [String]) throws -> Set<String> {
        let (directory, queue) = try seededCache()
        defer { withExtendedLifetime(directory) {} }
        var searched: Set<String> = []
        for sql in queries {
            for step in try Self.plan(of: sql, in: queue) {
                #expect(!step.hasPrefix("SCAN"), "\(step) in the plan of \(sql)")
                guard step.hasPrefix("SEARCH") else { continue }
                #expect(step.contains("INDEX") || step.contains("PRIMARY KEY"), "\(step)")
                searched.insert(String(step.split(separator: " ")[1]))
            }
        }
        return searched
    }

    /// The plan of `sql` on the cache of ``searchedTables(of:)``, step by step.
    private func plan(of sql: String) throws -> [String] {
        let (directory, queue) = try seededCache()
        defer { withExtendedLifetime(directory) {} }
        return try Self.plan(of: sql, in: queue)
    }

    /// A cache of 30 pages of two generations, analysed, so that plans are the ones a real file gets.
    private func seededCache() throws -> (TemporaryDirectory, DatabaseQueue) {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        for index in 0..<30 {
            try store.savePage(
                Fixtures.page(Array(index * 10 + 1...index * 10 + 10), next: "n"), at: index, in: Fixtures.posts)
        }
        try store.savePage(Fixtures.page(Array(1...10), next: "n", label: "v2"), at: 0, in: Fixtures.posts)
        try store.close()
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in try db.execute(sql: "ANALYZE") }
        return (directory, queue)
    }

    private static func plan(of sql: String, in queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in
            let arguments = StatementArguments(Array(repeating: 1, count: sql.count(where: { $0 == "?" })))
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                .map { $0["detail"] as String }
        }
    }
}
