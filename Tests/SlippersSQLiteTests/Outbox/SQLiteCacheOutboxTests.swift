import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// Offline writes in a real cache file: the change shown at once and in every list, the server's
/// copy kept apart, fetched pages never hiding a pending change, and the outbox surviving a relaunch.
@Suite struct SQLiteCacheOutboxTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    static let other = ListDescriptor(key: "GET /posts?tag=a", itemType: "Post")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1, 2, 3], next: PageToken(2)), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([4, 5], token: PageToken(2), next: nil), at: 1, in: Fixtures.posts)
        try store.savePage(Fixtures.page([2, 9], next: nil), at: 0, in: Self.other)
    }

    private func json(_ id: Int) throws -> [String: Any] {
        let stored = try #require(try store.item(type: "Post", key: .integer(id)))
        return try #require(try JSONSerialization.jsonObject(with: stored.item.json) as? [String: Any])
    }

    private func merge(_ id: Int, _ patch: String) throws -> PendingWrite {
        try store.writeLocally(
            WriteRequest(kind: .merge, json: Data(patch.utf8), url: "https://api.test/posts/\(id)/"), type: "Post",
            key: .integer(id))
    }

    private func pageIDs(_ index: Int, _ key: String = Fixtures.posts.key) throws -> [Int] {
        Fixtures.ids(try #require(try store.page(at: index, in: key)).items)
    }

    @Test func aChangeIsShownAtOnceInEveryListAndByAnotherProcessWithTheServerCopyKeptApart() throws {
        let write = try merge(2, #"{"label": "liked", "likes": 1}"#)
        #expect(write.method == "PATCH")
        #expect(write.state == .pending)
        #expect(!write.idempotencyKey.isEmpty)
        #expect(try json(2)["label"] as? String == "liked")
        // Both lists that show item 2 show the change: items are stored once.
        let other = try #require(try store.page(at: 0, in: Self.other.key))
        #expect(String(decoding: other.items[0].json, as: UTF8.self).contains("liked"))
        let server = try #require(try store.serverCopy(type: "Post", key: .integer(2)))
        #expect(String(decoding: server, as: UTF8.self) == #"{"id":2,"label":"v1"}"#)
        // Another connection to the file (as another process opens it) sees the change and the outbox.
        let reopened = try SQLiteCache(path: directory.path())
        #expect(try reopened.pendingWrites().map(\.id) == [write.id])
        #expect(try reopened.pendingWrites().first?.body == Data(#"{"label": "liked", "likes": 1}"#.utf8))
    }

    @Test func aFetchedPageNeverHidesAPendingChangeAndBecomesTheServerCopy() throws {
        _ = try merge(2, #"{"label": "liked"}"#)
        // The server changed the item meanwhile: the page brings its new copy.
        var page = Fixtures.page([1, 2, 3], next: PageToken(2), label: "v2")
        page.items[1] = RawItem(key: .integer(2), json: Data(#"{"id":2,"label":"v2","title":"server"}"#.utf8))
        try store.savePage(page, at: 0, in: Fixtures.posts)
        let item = try json(2)
        #expect(item["label"] as? String == "liked")
        #expect(item["title"] as? String == "server")
        #expect(try json(1)["label"] as? String == "v2")
        let server = try #require(try store.serverCopy(type: "Post", key: .integer(2)))
        #expect(String(decoding: server, as: UTF8.self).contains("\"title\":\"server\""))
    }

    @Test func twoQuickEditsAreBothKeptAndAnAcknowledgementOnlyEndsItsOwnWrite() throws {
        let first = try merge(2, #"{"label": "first"}"#)
        let second = try merge(2, #"{"likes": 2}"#)
        #expect(try json(2)["label"] as? String == "first")
        #expect(try json(2)["likes"] as? Int == 2)
        // The server answers the first with the item as it stands there: without the second change.
        try store.acknowledgeWrite(first.id, serverJSON: Data(#"{"id":2,"label":"first","version":7}"#.utf8))
        #expect(try store.pendingWrites().map(\.id) == [second.id])
        #expect(try json(2)["likes"] as? Int == 2)
        #expect(try json(2)["version"] as? Int == 7)
        try store.acknowledgeWrite(second.id, serverJSON: Data(#"{"id":2,"label":"first","likes":2,"version":8}"#.utf8))
        #expect(try store.pendingWrites().isEmpty)
        #expect(try store.serverCopy(type: "Post", key: .integer(2)) == nil)
        let stored = try #require(try store.item(type: "Post", key: .integer(2)))
        #expect(stored.item.json == Data(#"{"id":2,"label":"first","likes":2,"version":8}"#.utf8))
        // An acknowledged write is gone: acknowledging it again says so.
        #expect(throws: SQLiteCacheError.writeNotFound(id: first.id)) { try store.acknowledgeWrite(first.id) }
    }

    @Test func aFailedWriteKeepsItsChangeUntilRetriedOrDiscarded() throws {
        let write = try merge(3, #"{"label": "mine"}"#)
        try store.failWrite(write.id, reason: "HTTP 400: title too long")
        let failed = try #require(try store.pendingWrites().first)
        #expect(failed.state == .failed)
        #expect(failed.error == "HTTP 400: title too long")
        #expect(try json(3)["label"] as? String == "mine")
        try store.retryWrite(write.id)
        #expect(try store.pendingWrites().first?.state == .pending)
        try store.discardWrite(write.id)
        #expect(try store.pendingWrites().isEmpty)
        #expect(try json(3)["label"] as? String == "v1")
    }

    @Test func theServerWinsAConflictWithItsCurrentCopy() throws {
        let write = try merge(3, #"{"label": "mine"}"#)
        _ = try merge(3, #"{"likes": 1}"#)
        try store.resolveWithServer(write.id, serverJSON: Data(#"{"id":3,"label":"theirs"}"#.utf8))
        #expect(try store.pendingWrites().isEmpty)
        #expect(try json(3)["label"] as? String == "theirs")
        #expect(try json(3)["likes"] == nil)
    }

    @Test func aDeleteTakesTheItemOutOfEveryListUntilItIsDiscarded() throws {
        let write = try store.writeLocally(
            WriteRequest(kind: .delete, url: "https://api.test/posts/2/"), type: "Post", key: .integer(2))
        #expect(write.method == "DELETE")
        #expect(try pageIDs(0) == [1, 3])
        #expect(try pageIDs(0, Self.other.key) == [9])
        #expect(try store.list(Fixtures.posts.key)?.itemCount == 4)
        // A fetch of the page, which still lists it, leaves it out while the delete is pending.
        try store.savePage(Fixtures.page([1, 2, 3], next: PageToken(2)), at: 0, in: Fixtures.posts)
        #expect(try pageIDs(0) == [1, 3])
        // Discarded, the item is back at the page's next fetch.
        try store.discardWrite(write.id)
        try store.savePage(Fixtures.page([1, 2, 3], next: PageToken(2)), at: 0, in: Fixtures.posts)
        #expect(try pageIDs(0) == [1, 2, 3])
    }

    @Test func anItemWithAPendingWriteIsNeverEvictedAndTheOutboxSurvivesARelaunch() throws {
        let write = try merge(9, #"{"label": "keep"}"#)
        try store.evict(list: Self.other.key)
        #expect(try store.item(type: "Post", key: .integer(9)) != nil)
        let relaunched = try SQLiteCache(path: directory.path())
        #expect(try relaunched.pendingWrites().map(\.idempotencyKey) == [write.idempotencyKey])
        try relaunched.acknowledgeWrite(write.id)
        #expect(try relaunched.collectUnreferencedItems() == 1)
    }

    @Test func badChangesAreRefusedAndNothingIsQueued() throws {
        #expect(throws: SQLiteCacheError.self) { try merge(2, "{not json") }
        #expect(throws: SQLiteCacheError.self) { try merge(2, "[1, 2]") }
        #expect(throws: SQLiteCacheError.itemNotFound(type: "Post", key: "404")) { try merge(404, #"{"a": 1}"#) }
        #expect(try store.pendingWrites().isEmpty)
        #expect(try json(2)["label"] as? String == "v1")
    }

    @Test func theOutboxIsReadABatchAtATime() throws {
        let writes = try [1, 2, 3, 4, 5].map { try merge($0, #"{"label": "b"}"#) }
        let first = try store.pendingWrites(after: nil, limit: 2)
        #expect(first.map(\.id) == Array(writes.prefix(2).map(\.id)))
        let rest = try store.pendingWrites(after: first.last?.id, limit: 10)
        #expect(rest.map(\.id) == Array(writes.dropFirst(2).map(\.id)))
        #expect(try store.pendingWriteCount() == 5)
    }
}
