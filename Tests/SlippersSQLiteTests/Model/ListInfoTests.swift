import Foundation
import Slippers
import SlippersTestSupport
import Testing

@testable import SlippersSQLite

@Suite struct ListInfoTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    @Test func itsHeadIsTheHeadTheStoreReadsAndASaveReturns() throws {
        try store.savePage(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts)
        let saved = try store.savePage(Fixtures.page([3], token: "2", next: "3"), at: 1, in: Fixtures.posts)
        let info = try #require(try store.list(Fixtures.posts.key))
        #expect(info.head == saved)
        #expect(info.head == (try store.listHead(Fixtures.posts.key)))
        #expect(info.key == Fixtures.posts.key)
        #expect(info.resumeToken == "3")
        #expect(info.nextPageIndex == 2)
        #expect(info.head.cachedPageCount == 2)
    }

    @Test func itEncodesEveryKeyWithNullForWhatIsAbsent() throws {
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        let info = try #require(try store.list(Fixtures.posts.key))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let object = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(info)) as? [String: Any])
        #expect(
            object.keys.sorted() == [
                "account", "createdAt", "endReached", "gaps", "generation", "incomplete", "invalidatedAt", "itemCount",
                "itemType", "key",
                "lastFetchedAt",
                "nextPageIndex", "pageCount", "refreshedAt", "resumeToken", "style", "supersededPageCount", "total",
                "unverified",
            ])
        #expect(object["style"] is NSNull)
        #expect(object["resumeToken"] is NSNull)
        #expect(object["unverified"] as? Bool == false)
        #expect(object["incomplete"] as? Bool == false)
    }
}
