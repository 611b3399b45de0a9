import Foundation
import Slippers
import SlippersTestSupport
import Testing

@testable import SlippersSQLite

/// The pager's reads: a list's head and runs of keyed pages, never an aggregate over its pages.
@Suite struct SQLiteCacheWindowTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    private func savePages(_ count: Int, label: String = "v1") throws {
        for index in 0..<count {
            try store.savePage(
                Fixtures.page(Array(index * 10 + 1...index * 10 + 10), next: PageToken(index + 2), label: label),
                at: index, in: Fixtures.posts)
        }
    }

    @Test func theHeadAgreesWithTheAggregatedListAcrossGenerations() throws {
        #expect(try store.listHead(Fixtures.posts.key) == nil)
        try savePages(5)
        var info = try #require(try store.list(Fixtures.posts.key))
        var head = try #require(try store.listHead(Fixtures.posts.key))
        #expect(head.nextPageIndex == info.nextPageIndex)
        #expect(head.nextPageIndex == 5)
        #expect(head.resumeToken == info.resumeToken)

        // A new generation: page 0 is current, pages 1…4 superseded, then page 1 again.
        try savePages(2, label: "v2")
        info = try #require(try store.list(Fixtures.posts.key))
        head = try #require(try store.listHead(Fixtures.posts.key))
        #expect(head.nextPageIndex == info.nextPageIndex)
        #expect(head.nextPageIndex == 2)
        #expect(head.generation == info.generation)
        #expect(head.refreshedAt == info.refreshedAt)
        #expect(head.endReached == info.endReached)

        try store.invalidate(Fixtures.posts.key)
        #expect(try store.listHead(Fixtures.posts.key)?.invalidatedAt != nil)
    }

    @Test func aWindowReadsThePagesAskedForAndStopsAtTheFirstMissingOne() throws {
        try savePages(3)
        let window = try #require(try store.window(Fixtures.posts.key, pages: 1..<6))
        #expect(window.pages.map(\.info.index) == [1, 2])
        #expect(Fixtures.ids(window.pages[0].items) == Array(11...20))
        #expect(window.head.currentPageCount == 3)
        #expect(try store.window("GET /nothing", pages: 0..<1) == nil)
    }
}
