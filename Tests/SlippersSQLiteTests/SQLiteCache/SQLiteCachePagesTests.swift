import Foundation
import GRDB
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct SQLiteCachePagesTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let key = Fixtures.posts.key

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    @Test func savesAPageWithItsRowMembershipAndTheResumeToken() throws {
        let info = try store.savePage(
            Page(
                items: [Fixtures.item(1), Fixtures.item(2)], nextToken: "2", total: 5,
                validators: PageValidators(etag: "\"a\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")),
            at: 0, in: Fixtures.posts)
        #expect(info.resumeToken == "2")
        #expect(!info.endReached)
        #expect(info.total == 5)
        #expect(info.generation == 1)
        let page = try #require(try store.page(at: 0, in: key))
        #expect(page.items == [Fixtures.item(1), Fixtures.item(2)])
        #expect(page.info.validators.etag == "\"a\"")
        #expect(page.info.itemCount == 2)
        #expect(!page.info.isSuperseded)
        #expect(try store.page(at: 1, in: key) == nil)
    }

    @Test func theLastPageMarksTheEndAndClearsTheResumeToken() throws {
        try store.savePage(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts)
        let info = try store.savePage(Fixtures.page([3], token: "2", next: nil), at: 1, in: Fixtures.posts)
        #expect(info.endReached)
        #expect(info.resumeToken == nil)
        #expect(info.currentPageCount == 2)
        let stats = try #require(try store.list(key))
        #expect(stats.pageCount == 2)
        #expect(stats.itemCount == 3)
        #expect(try Fixtures.ids(#require(try store.cachedList(key)).items) == [1, 2, 3])
    }

    @Test func aPageAfterAGapIsRefused() throws {
        try store.savePage(Fixtures.page([1], next: "2"), at: 0, in: Fixtures.posts)
        #expect(throws: CacheError.pageOutOfOrder(list: key, index: 2)) {
            try store.savePage(Fixtures.page([3], next: "4"), at: 2, in: Fixtures.posts)
        }
        #expect(try store.list(key)?.pageCount == 1)
    }

    @Test func savingTheFirstPageAgainStartsAGenerationAndLeavesOlderPagesReadableButStale() throws {
        try store.savePage(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([3, 4], token: "2", next: "3"), at: 1, in: Fixtures.posts)
        try store.invalidate(key)
        #expect(try store.list(key)?.isUnverified == true)

        // Two items were inserted at the top on the server.
        let info = try store.savePage(Fixtures.page([6, 5], next: "2", label: "v2"), at: 0, in: Fixtures.posts)
        #expect(info.generation == 2)
        #expect(info.invalidatedAt == nil)
        #expect(try store.list(key)?.supersededPageCount == 1)
        #expect(info.resumeToken == "2")
        #expect(info.nextPageIndex == 1)
        let pages = try store.pages(in: key)
        #expect(pages.map(\.isSuperseded) == [false, true])

        // The new first page shifted 1 and 2 onto page 2: the list shows each id once.
        try store.savePage(Fixtures.page([1, 2], token: "2", next: "3", label: "v2"), at: 1, in: Fixtures.posts)
        let list = try #require(try store.cachedList(key))
        #expect(Fixtures.ids(list.items) == [6, 5, 1, 2])
        #expect(list.pages.map(\.isSuperseded) == [false, false])
    }

    @Test func theListHidesDuplicateIdsAcrossPagesOfTwoGenerations() throws {
        try store.savePage(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([3, 4], token: "2", next: "3"), at: 1, in: Fixtures.posts)
        try store.savePage(Fixtures.page([5, 1], next: "2"), at: 0, in: Fixtures.posts)
        var streamed: [RawItem] = []
        try store.forEachItem(in: key) { streamed.append($0) }
        #expect(Fixtures.ids(streamed) == [5, 1, 3, 4])
        #expect(try store.cachedList(key)?.items == streamed)
    }

    @Test func aShorterNewGenerationDropsTheStalePagesPastItsEnd() throws {
        try store.savePage(Fixtures.page([1], next: "2"), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([2], token: "2", next: "3"), at: 1, in: Fixtures.posts)
        try store.savePage(Fixtures.page([3], token: "3", next: nil), at: 2, in: Fixtures.posts)
        let info = try store.savePage(Fixtures.page([9], next: nil), at: 0, in: Fixtures.posts)
        #expect(info.currentPageCount == 1)
        #expect(info.endReached)
        #expect(try store.pages(in: key).count == 1)
    }

    @Test func anItemReachedThroughTwoListsIsOneRowAndAnUpdateIsSeenByBoth() throws {
        let mine = ListDescriptor(key: "GET /posts?author=me", itemType: "Post")
        try store.savePage(Fixtures.page([1, 2], next: nil), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([2], next: nil), at: 0, in: mine)
        #expect(try store.stats().items == 2)
        try store.saveItem(Fixtures.item(2, "edited"), type: "Post")
        #expect(try store.cachedList(key)?.items.last == Fixtures.item(2, "edited"))
        #expect(try store.cachedList(mine.key)?.items == [Fixtures.item(2, "edited")])
    }

    @Test func itemsOfDifferentTypesWithTheSameIdAreDistinct() throws {
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        try store.savePage(
            Fixtures.page([1], next: nil, label: "author"), at: 0,
            in: ListDescriptor(key: "GET /authors", itemType: "Author"))
        #expect(try store.items(withKey: .integer(1)).map(\.type) == ["Author", "Post"])
        #expect(try store.item(type: "Post", key: .integer(1))?.item == Fixtures.item(1))
    }

    @Test func integerAndStringIdsAreDistinctKeys() throws {
        let stripe = ListDescriptor(key: "GET /v1/customers", itemType: "Customer")
        let items = [
            RawItem(key: .string("cus_9s6XKzkNRiz8i3"), json: Data(#"{"id":"cus_9s6XKzkNRiz8i3"}"#.utf8)),
            RawItem(key: .string("42"), json: Data(#"{"id":"42"}"#.utf8)),
            RawItem(key: .integer(42), json: Data(#"{"id":42}"#.utf8)),
        ]
        try store.savePage(Page(items: items), at: 0, in: stripe)
        #expect(try store.cachedList(stripe.key)?.items == items)
        #expect(try store.item(type: "Customer", key: .string("42"))?.item == items[1])
    }

    @Test func aPageThatWasNotModifiedRewritesNoItemRow() throws {
        let then = Date(timeIntervalSince1970: 1_000_000)
        try store.savePage(Fixtures.page([1, 2], next: nil), at: 0, in: Fixtures.posts, now: then)
        try store.invalidate(key)
        let later = then.addingTimeInterval(60)
        try store.markPageNotModified(at: 0, in: key, validators: PageValidators(etag: "\"b\""), now: later)
        let page = try #require(try store.page(at: 0, in: key))
        #expect(page.info.fetchedAt == later)
        #expect(page.info.validators.etag == "\"b\"")
        #expect(try store.item(type: "Post", key: .integer(1))?.updatedAt == then)
        #expect(try store.list(key)?.invalidatedAt == nil)
    }

    @Test func savingTheSameItemAgainDoesNotRewriteIt() throws {
        let then = Date(timeIntervalSince1970: 1_000_000)
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts, now: then)
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts, now: then.addingTimeInterval(5))
        #expect(try store.item(type: "Post", key: .integer(1))?.updatedAt == then)
        try store.savePage(Fixtures.page([1], next: nil, label: "v2"), at: 0, in: Fixtures.posts, now: then + 9)
        #expect(try store.item(type: "Post", key: .integer(1))?.updatedAt == then + 9)
    }

    @Test func anIdTwiceOnOnePageIsListedOnceAtItsFirstPositionHoldingTheLaterJSON() throws {
        let page = Page(items: [Fixtures.item(1, "first"), Fixtures.item(2), Fixtures.item(1, "second")])
        let head = try store.savePage(page, at: 0, in: Fixtures.posts)
        #expect(head.repeatedItemCount == 1)
        #expect(try store.item(type: "Post", key: .integer(1))?.item == Fixtures.item(1, "second"))
        #expect(
            try store.page(at: 0, in: key)?.items.map(\.json) == [
                Fixtures.item(1, "second").json, Fixtures.item(2).json,
            ])
        #expect(try store.page(at: 0, in: key)?.info.itemCount == 2)
        #expect(try store.list(key)?.itemCount == 2)
    }

    @Test func aPageOfMoreItemsThanOneInsertTakesKeepsOrderStoredRowsAndTheLaterJSONOfARepeat() throws {
        // Ids 1…260 past the 100 rows one insert takes, 50 of them stored already (one changed),
        // and id 7 again past the second chunk with other JSON.
        try store.savePage(Fixtures.page(Array(1...50), next: nil), at: 0, in: Fixtures.posts)
        func rowIDs() throws -> [Int64: Int64] {
            let queue = try DatabaseQueue(path: directory.path())
            defer { try? queue.close() }
            return try queue.read { db in
                try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, id FROM items").map { ($0[0], $0[1]) })
            }
        }
        let before = try rowIDs()
        var items = (1...260).map { Fixtures.item($0) }
        items[19] = Fixtures.item(20, "changed")
        items.insert(Fixtures.item(7, "again"), at: 230)
        let other = ListDescriptor(key: "other", itemType: "Post")
        let head = try store.savePage(Page(items: items, nextToken: nil), at: 0, in: other)
        #expect(head.repeatedItemCount == 1)
        let page = try #require(try store.page(at: 0, in: "other"))
        #expect(Fixtures.ids(page.items) == Array(1...260))
        #expect(try store.item(type: "Post", key: .integer(7))?.item == Fixtures.item(7, "again"))
        #expect(try store.item(type: "Post", key: .integer(20))?.item == Fixtures.item(20, "changed"))
        let after = try rowIDs()
        #expect(before.allSatisfy { after[$0.key] == $0.value })
        #expect(try store.stats().items == 260)
    }

    @Test func idsThatAnEarlierPageListedAreCountedOnceAndReportedAsRepeated() throws {
        // An offset list that shifted while it was paged: page 1 repeats two ids of page 0.
        try store.savePage(Fixtures.page([1, 2, 3, 4], next: "2"), at: 0, in: Fixtures.posts)
        let head = try store.savePage(Fixtures.page([3, 4, 5, 6], next: nil), at: 1, in: Fixtures.posts)
        #expect(head.repeatedItemCount == 2)
        #expect(try store.list(key)?.itemCount == 6)
        #expect(try Fixtures.ids(#require(try store.cachedList(key)).items) == [1, 2, 3, 4, 5, 6])
        #expect(try store.pages(in: key).map(\.itemCount) == [4, 4])
    }

    @Test func aListThatCycledAndWasRerunCountsWhatItExports() throws {
        // Refreshed runs of a list whose pages bring the same ids: every count is of distinct items.
        for _ in 0..<3 {
            try store.savePage(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts)
            try store.savePage(Fixtures.page([3, 4], next: "3"), at: 1, in: Fixtures.posts)
            try store.savePage(Fixtures.page([1, 2], next: nil), at: 2, in: Fixtures.posts)
        }
        let list = try #require(try store.cachedList(key))
        #expect(list.list.itemCount == list.items.count)
        #expect(list.items.count == 4)
        #expect(try store.stats().items == 4)
    }

    @Test func savingAPageAgainWithOtherItemsReplacesItsMembership() throws {
        try store.savePage(Fixtures.page([1, 2, 3], next: nil), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([3, 4], next: nil), at: 0, in: Fixtures.posts)
        #expect(try Fixtures.ids(#require(try store.page(at: 0, in: key)).items) == [3, 4])
        try store.savePage(Fixtures.page([3, 4], next: nil), at: 0, in: Fixtures.posts)
        #expect(try Fixtures.ids(#require(try store.page(at: 0, in: key)).items) == [3, 4])
    }

    @Test func savingOneItemInsertsANewOneAndLeavesAnUnchangedOneAlone() throws {
        let then = Date(timeIntervalSince1970: 1_000_000)
        try store.saveItem(Fixtures.item(7), type: "Post", now: then)
        try store.saveItem(Fixtures.item(7), type: "Post", now: then + 5)
        #expect(try store.item(type: "Post", key: .integer(7))?.updatedAt == then)
        try store.saveItem(Fixtures.item(7, "v2"), type: "Post", now: then + 9)
        let stored = try #require(try store.item(type: "Post", key: .integer(7)))
        #expect(stored.item == Fixtures.item(7, "v2"))
        #expect(stored.updatedAt == then + 9)
    }

    @Test func aListKeepsItsItemType() throws {
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        #expect(throws: CacheError.itemTypeMismatch(list: key, stored: "Post", requested: "Author")) {
            try store.savePage(
                Fixtures.page([1], next: nil), at: 0, in: ListDescriptor(key: key, itemType: "Author"))
        }
    }

    @Test(arguments: [
        "GET /search?q='; DROP TABLE items; --", "Robert'); DELETE FROM pages;--", "путь/ключ?名前=値 🥿", "\"quoted\"",
    ])
    func keysAndIdsWithQuotesSemicolonsAndUnicodeAreStoredVerbatim(text: String) throws {
        let list = ListDescriptor(key: text, itemType: text, style: text)
        let item = RawItem(key: .string(text), json: Data(#"{"id":"x"}"#.utf8))
        try store.savePage(Page(items: [item], nextToken: PageToken(text)), at: 0, in: list)
        let info = try #require(try store.list(text))
        #expect(info.key == text)
        #expect(info.style == text)
        #expect(info.resumeToken == PageToken(text))
        #expect(try store.item(type: text, key: .string(text))?.item == item)
        #expect(try store.diagnose().isHealthy)
        #expect(try store.lists().map(\.key) == [text])
    }

    @Test func invalidatingEverythingIsTheStoresRefresh() throws {
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        let refreshable: any Refreshable = store
        try refreshable.refresh()
        #expect(try store.list(key)?.isUnverified == true)
        #expect(throws: CacheError.listNotFound(key: "nope")) { try store.invalidate("nope") }
    }

    @Test func anotherConnectionSeesTheInvalidation() throws {
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        let other = try SQLiteCache(path: directory.path())
        try store.invalidate(key)
        #expect(try other.list(key)?.invalidatedAt != nil)
    }
}
