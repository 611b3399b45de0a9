import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct SQLiteCacheEvictionTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let old = Date(timeIntervalSince1970: 1_000_000)
    let recent = Date(timeIntervalSince1970: 2_000_000)
    let stale = ListDescriptor(key: "old", itemType: "Post")
    let fresh = ListDescriptor(key: "new", itemType: "Post")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1, 2, 3], next: "2"), at: 0, in: stale, now: old)
        try store.savePage(Fixtures.page([4], token: "2", next: nil), at: 1, in: stale, now: old)
        try store.savePage(Fixtures.page([3, 5], next: nil), at: 0, in: fresh, now: recent)
    }

    @Test func evictingByAgeRemovesOldListsAndTheItemsOnlyTheyReferenced() throws {
        let report = try store.evict(olderThan: old.addingTimeInterval(1))
        #expect(report == EvictionReport(lists: 1, pages: 2, items: 3))
        #expect(try store.lists().map(\.key) == ["new"])
        #expect(try store.item(type: "Post", key: .integer(3)) != nil)
        #expect(try store.item(type: "Post", key: .integer(1)) == nil)
    }

    @Test func evictingAListKeepsItemsOthersReference() throws {
        #expect(try store.evict(list: "new") == EvictionReport(lists: 1, pages: 1, items: 1))
        #expect(try store.item(type: "Post", key: .integer(3)) != nil)
        #expect(throws: CacheError.listNotFound(key: "new")) { try store.evict(list: "new") }
    }

    @Test func unreferencedItemsAreCollected() throws {
        try store.saveItem(Fixtures.item(99), type: "Post")
        #expect(try store.stats().unreferencedItems == 1)
        #expect(try store.collectUnreferencedItems() == 1)
        #expect(try store.stats().unreferencedItems == 0)
        #expect(try store.stats().items == 5)
    }

    @Test func evictingToASizeRemovesTheLeastRecentlyWrittenFirst() throws {
        let newBytes = Int64(Fixtures.item(3).json.count + Fixtures.item(5).json.count)
        let report = try store.evict(toFit: newBytes)
        #expect(report.lists == 1)
        #expect(try store.lists().map(\.key) == ["new"])
        #expect(try store.stats().itemBytes <= newBytes)
        #expect(try store.evict(toFit: 1_000_000) == EvictionReport())
    }

    @Test func vacuumGivesSpaceBack() throws {
        let big = ListDescriptor(key: "big", itemType: "Blob")
        let padding = String(repeating: "x", count: 4000)
        for index in 0..<50 {
            let items = (0..<10).map { RawItem(key: .integer(index * 10 + $0), json: Data(#""\#(padding)""#.utf8)) }
            try store.savePage(Page(items: items, nextToken: "n"), at: index, in: big)
        }
        try store.evict(list: "big")
        try store.vacuum()
        let after = try store.stats()
        #expect(after.fileSize < 200_000)
        #expect(after.items == 5)
    }
}
