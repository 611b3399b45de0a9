import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// A cached list revalidated page by page: unchanged, changed, new and removed pages counted.
@Suite struct ListSyncRevalidateTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let posts = ListDescriptor(key: "GET /posts", itemType: "Post")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    @Test func aGrownListCountsItsNewPagesAndAShrunkOneItsRemovedPages() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        let sync = ListSync(storage: store, source: source, list: posts)
        try await sync.run()

        source.setIDs(Array(1...30), label: "v1")
        var found = try await sync.revalidate()
        #expect(found.unchanged == 3)
        // Page 4 was the last; now it leads to pages 5 and 6.
        #expect(found.changed == 1)
        #expect(found.new == 2)
        #expect(found.removed == 0)
        #expect(found.itemsWritten == 15)

        source.setIDs(Array(1...12), label: "v1")
        found = try await sync.revalidate()
        #expect(found.unchanged == 2)
        #expect(found.changed == 1)
        #expect(found.removed == 3)
        #expect(try store.list(posts.key)?.pageCount == 3)
        #expect(found.endReached)
    }

    @Test func aServerWithoutValidatorsIsRevalidatedByDigest() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        source.sendNoValidators()
        let sync = ListSync(storage: store, source: source, list: posts)
        try await sync.run()
        let before = try #require(try store.item(type: "Post", key: .integer(7))).updatedAt
        let found = try await sync.revalidate()
        #expect(found.unchanged == 4)
        #expect(found.pagesWalked == 4)
        #expect(source.requests.suffix(4).allSatisfy { $0.validators == nil })
        #expect(try store.item(type: "Post", key: .integer(7))?.updatedAt == before)
        #expect(try store.list(posts.key)?.generation == 1)
    }

    @Test func maxPagesStopsTheWalk() async throws {
        let source = ScriptedSource(ids: Array(1...20), pageSize: 5)
        let sync = ListSync(storage: store, source: source, list: posts)
        try await sync.run()
        let found = try await sync.revalidate(maxPages: 2)
        #expect(found.pagesWalked == 2)
        #expect(!found.endReached)
    }

    @Test func aNoStorePageStopsASyncUnlessItIsKept() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        source.setCaching(PageCaching(headers: ["Cache-Control": "no-store"]))
        let refusing = ListSync(storage: store, source: source, list: posts)
        await #expect(throws: NoStorePageError(list: posts.key, index: 0)) { try await refusing.run() }
        #expect(try store.list(posts.key) == nil)

        var keeping = refusing
        keeping.keepsNoStorePages = true
        try await keeping.run()
        #expect(try store.list(posts.key)?.pageCount == 2)
        #expect(
            NoStorePageError(list: "GET /x", index: 2).description
                == "The server marked page 3 of \"GET /x\" no-store (sensitive data), so it was not cached; "
                + "pass --keep-no-store to cache it all the same")
    }
}
