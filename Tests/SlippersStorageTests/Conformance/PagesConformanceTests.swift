import Foundation
import Slippers
import SlippersPostgres
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// The rules of saving a page, on a file and on a real PostgreSQL server the test starts: each
/// scenario runs on both backends through `CacheStorage` and must end the same on both.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct PagesConformanceTests {
    private static let posts = ListDescriptor(key: "GET /posts", itemType: "Post")

    @Test func aPageAfterAGapIsRefusedAndANewListKeepsNothingOfIt() async throws {
        try await onBothBackends { storage in
            await #expect(throws: CacheError.pageOutOfOrder(list: Self.posts.key, index: 1)) {
                _ = try await storage.savePage(ConformanceLists.page([3], next: "3"), at: 1, in: Self.posts)
            }
            #expect(try await storage.list(Self.posts.key) == nil)
            _ = try await storage.savePage(ConformanceLists.page([1], next: "2"), at: 0, in: Self.posts)
            await #expect(throws: CacheError.pageOutOfOrder(list: Self.posts.key, index: 2)) {
                _ = try await storage.savePage(ConformanceLists.page([3], next: "4"), at: 2, in: Self.posts)
            }
            #expect(try await storage.list(Self.posts.key)?.pageCount == 1)
            return try await ConformanceLists.outline(storage)
        }
    }

    @Test func aListKeepsItsItemType() async throws {
        try await onBothBackends { storage in
            _ = try await storage.savePage(ConformanceLists.page([1], next: nil), at: 0, in: Self.posts)
            let authors = ListDescriptor(key: Self.posts.key, itemType: "Author")
            await #expect(
                throws: CacheError.itemTypeMismatch(list: Self.posts.key, stored: "Post", requested: "Author")
            ) {
                _ = try await storage.savePage(ConformanceLists.page([1], next: nil), at: 0, in: authors)
            }
            return try await ConformanceLists.outline(storage)
        }
    }

    @Test func idsRepeatedOnAPageAndFromEarlierPagesAreCountedOnce() async throws {
        try await onBothBackends { storage in
            let twice = Page(
                items: [
                    ConformanceLists.item(1, "first"), ConformanceLists.item(2), ConformanceLists.item(1, "second"),
                ], nextToken: "2")
            let first = try await storage.savePage(twice, at: 0, in: Self.posts)
            #expect(first.repeatedItemCount == 1)
            #expect(try await storage.item(type: "Post", key: .integer(1))?.item == ConformanceLists.item(1, "second"))
            // An offset list that shifted while it was paged: page 1 repeats two ids of page 0.
            let second = try await storage.savePage(
                ConformanceLists.page([1, 2, 5, 6], next: nil), at: 1, in: Self.posts)
            #expect(second.repeatedItemCount == 2)
            #expect(second.endReached)
            #expect(try await storage.list(Self.posts.key)?.itemCount == 4)
            return try await ConformanceLists.outline(storage)
        }
    }

    @Test func aPageWhoseItemsEarlierPagesAllListIsHeldUnwrittenAndOneWithANewItemIsSaved() async throws {
        try await onBothBackends { storage in
            // The first page and a page nobody listed before are saved whatever they hold.
            #expect(
                try await storage.savePagesUnlessNothingNew(
                    [ConformanceLists.page([1, 2], next: "2")], at: 0, in: Self.posts
                ).count == 1)
            let repeated = Page(
                items: [ConformanceLists.item(2, "edited"), ConformanceLists.item(1)], token: "2", nextToken: "3")
            #expect(try await storage.savePagesUnlessNothingNew([repeated], at: 1, in: Self.posts).isEmpty)
            #expect(try await storage.list(Self.posts.key)?.pageCount == 1)
            #expect(try await storage.item(type: "Post", key: .integer(2))?.item == ConformanceLists.item(2))
            let head = try await storage.savePagesUnlessNothingNew(
                [ConformanceLists.page([2, 3], next: "3")], at: 1, in: Self.posts
            ).first
            #expect(head?.repeatedItemCount == 1)
            #expect(head?.currentPageCount == 2)
            // Another list's pages do not count, nor does a page at the same index or later.
            let other = ListDescriptor(key: "GET /other", itemType: "Post")
            _ = try await storage.savePage(ConformanceLists.page([7], next: "2"), at: 0, in: other)
            #expect(
                try await storage.savePagesUnlessNothingNew(
                    [ConformanceLists.page([3], next: "3")], at: 1, in: other
                ).count == 1)
            #expect(
                try await storage.savePagesUnlessNothingNew(
                    [ConformanceLists.page([3], next: "4")], at: 1, in: Self.posts
                ).count == 1)
            return try await ConformanceLists.outline(storage)
        }
    }

    @Test func pagesSavedTogetherStopAtTheFirstThatBringsNothingNewAndALastPageIsAlwaysSaved() async throws {
        try await onBothBackends { storage in
            // Three pages at once: the third lists only what the first two of the same call list.
            let heads = try await storage.savePagesUnlessNothingNew(
                [
                    ConformanceLists.page([1, 2], next: "2"), ConformanceLists.page([3, 4], token: "2", next: "3"),
                    ConformanceLists.page([4, 1], token: "3", next: "4"),
                    ConformanceLists.page([5], token: "4", next: "5"),
                ], at: 0, in: Self.posts)
            #expect(heads.map(\.currentPageCount) == [1, 2])
            #expect(heads.map(\.repeatedItemCount) == [0, 0])
            #expect(try await storage.list(Self.posts.key)?.pageCount == 2)
            #expect(try await storage.item(type: "Post", key: .integer(5)) == nil)
            // A last page is saved even when every item of it is listed already.
            let last = try await storage.savePagesUnlessNothingNew(
                [
                    ConformanceLists.page([5], token: "3", next: "4"),
                    ConformanceLists.page([2, 3], token: "4", next: nil),
                ],
                at: 2, in: Self.posts)
            #expect(last.map(\.currentPageCount) == [3, 4])
            #expect(last.map(\.repeatedItemCount) == [0, 2])
            #expect(last.last?.endReached == true)
            return try await ConformanceLists.outline(storage)
        }
    }

    @Test func pagesSavedTogetherThatCannotBeSavedLeaveNothingOfThem() async throws {
        try await onBothBackends { storage in
            _ = try await storage.savePage(ConformanceLists.page([1], next: "2"), at: 0, in: Self.posts)
            // The call's second page follows its first, but the first follows no page.
            await #expect(throws: CacheError.pageOutOfOrder(list: Self.posts.key, index: 2)) {
                _ = try await storage.savePagesUnlessNothingNew(
                    [
                        ConformanceLists.page([3], token: "3", next: "4"),
                        ConformanceLists.page([4], token: "4", next: "5"),
                    ],
                    at: 2, in: Self.posts)
            }
            // A list of another type refuses them.
            let authors = ListDescriptor(key: Self.posts.key, itemType: "Author")
            await #expect(
                throws: CacheError.itemTypeMismatch(list: Self.posts.key, stored: "Post", requested: "Author")
            ) {
                _ = try await storage.savePagesUnlessNothingNew(
                    [
                        ConformanceLists.page([2], token: "2", next: "3"),
                        ConformanceLists.page([3], token: "3", next: nil),
                    ],
                    at: 1, in: authors)
            }
            #expect(try await storage.list(Self.posts.key)?.pageCount == 1)
            #expect(try await storage.item(type: "Post", key: .integer(3)) == nil)
            #expect(try await storage.item(type: "Author", key: .integer(2)) == nil)
            return try await ConformanceLists.outline(storage)
        }
    }

    @Test func aNewGenerationLeavesOlderPagesStaleAndAShorterOneDropsThePagesPastItsEnd() async throws {
        try await onBothBackends { storage in
            _ = try await storage.savePage(ConformanceLists.page([1, 2], next: "2"), at: 0, in: Self.posts)
            _ = try await storage.savePage(ConformanceLists.page([3, 4], token: "2", next: "3"), at: 1, in: Self.posts)
            _ = try await storage.savePage(ConformanceLists.page([5], token: "3", next: "4"), at: 2, in: Self.posts)
            try await storage.invalidate(Self.posts.key)
            // Two items were inserted at the top on the server.
            let head = try await storage.savePage(
                ConformanceLists.page([7, 6], next: "2", label: "v2"), at: 0, in: Self.posts)
            #expect(head.generation == 2)
            #expect(head.invalidatedAt == nil)
            #expect(head.currentPageCount == 1)
            #expect(head.resumeToken == "2")
            var outline = try await ConformanceLists.outline(storage)
            // Page 1 saved again, reached through another next token: page 2 no longer follows it.
            let again = try await storage.savePage(
                ConformanceLists.page([1, 2], token: "2", next: "3b", label: "v2"), at: 1, in: Self.posts)
            #expect(again.resumeToken == "3b")
            outline += try await ConformanceLists.outline(storage)
            let last = try await storage.savePage(
                ConformanceLists.page([9], next: nil, label: "v3"), at: 0, in: Self.posts)
            #expect(last.endReached)
            #expect(last.currentPageCount == 1)
            #expect(try await storage.pages(in: Self.posts.key).count == 1)
            return outline + (try await ConformanceLists.outline(storage))
        }
    }

    @Test(arguments: [
        "GET /search?q='; DROP TABLE items; --", "Robert'); DELETE FROM pages;--", "путь/ключ?名前=値 🥿",
        "$$ \"quoted\" $$",
    ])
    func keysAndIdsWithQuotesSemicolonsAndUnicodeAreStoredVerbatim(text: String) async throws {
        try await onBothBackends { storage in
            let list = ListDescriptor(key: text, itemType: text, style: text)
            let item = RawItem(key: .string(text), json: Data(#"{"id":"x"}"#.utf8))
            _ = try await storage.savePage(Page(items: [item], nextToken: PageToken(text)), at: 0, in: list)
            let info = try #require(try await storage.list(text))
            #expect(info.key == text)
            #expect(info.style == text)
            #expect(info.resumeToken == PageToken(text))
            #expect(try await storage.item(type: text, key: .string(text))?.item == item)
            return try await ConformanceLists.outline(storage)
        }
    }

    @Test func removingAnAccountDeletesItsListsItemsAndWatermarksAndNothingElse() async throws {
        try await onBothBackends { storage in
            let alice = Self.posts.forAccount(Account("alice"))
            let bob = Self.posts.forAccount(Account("bob"))
            _ = try await storage.savePage(ConformanceLists.page([1, 2], next: nil, label: "alice"), at: 0, in: alice)
            _ = try await storage.savePage(ConformanceLists.page([1, 2], next: nil, label: "bob"), at: 0, in: bob)
            _ = try await storage.savePage(
                ConformanceLists.page([1], next: nil, label: "anyone"), at: 0, in: Self.posts)
            try await storage.saveWatermark(SyncWatermark(field: "updated_at", value: "1"), of: alice.key)
            #expect(try await storage.accounts() == [.anonymous, Account("alice"), Account("bob")])
            #expect(storage.account(derivedFrom: nil) == .anonymous)
            #expect(storage.account(derivedFrom: "digest").isDerived)

            let removal = try await storage.removeAccount(Account("alice"))
            #expect(removal.lists == 1 && removal.items == 2 && removal.watermarks == 1)
            #expect(try await storage.list(alice.key) == nil)
            #expect(try await storage.item(type: alice.itemType, key: .integer(1)) == nil)
            #expect(try await storage.watermark(of: alice.key) == nil)
            #expect(
                try await storage.item(type: bob.itemType, key: .integer(1))?.item == ConformanceLists.item(1, "bob"))
            #expect(try await storage.accounts() == [.anonymous, Account("bob")])
            return try await ConformanceLists.outline(storage)
        }
    }

    /// Runs `scenario` on a new file and on a new PostgreSQL database; what each returns must match.
    private func onBothBackends(_ scenario: (any CacheStorage) async throws -> [String]) async throws {
        try await StorageBackends.expectSame(scenario)
    }
}
