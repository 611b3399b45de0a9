import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// Items made locally in a real cache file: placed in their list at once, kept there through
/// refreshes until the server has them, then filed under the server's id.
@Suite struct SQLiteCacheInsertTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1, 2, 3], next: PageToken(2)), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([4, 5], token: PageToken(2), next: nil), at: 1, in: Fixtures.posts)
    }

    @discardableResult
    private func insert(_ id: Int, at position: InsertPosition = .first) throws -> PendingWrite {
        let item = Fixtures.item(id, "new")
        return try store.insertLocally(
            item, type: "Post", request: WriteRequest(kind: .insert, json: item.json, url: "https://api.test/posts/"),
            into: Fixtures.posts.key, at: position)
    }

    private func pageIDs(_ index: Int) throws -> [Int] {
        Fixtures.ids(try #require(try store.page(at: index, in: Fixtures.posts.key)).items)
    }

    @Test func anInsertIsPlacedFirstOrLastAndQueuedAsAPost() throws {
        let write = try insert(-1)
        try insert(-2, at: .last)
        #expect(write.kind == .insert)
        #expect(write.method == "POST")
        #expect(write.url == "https://api.test/posts/")
        #expect(try pageIDs(0) == [-1, 1, 2, 3])
        #expect(try pageIDs(1) == [4, 5, -2])
        #expect(try store.pages(in: Fixtures.posts.key).map(\.itemCount) == [4, 3])
        // Another connection, as another process has, sees the list and the outbox.
        let reopened = try SQLiteCache(path: directory.path())
        #expect(try reopened.pendingWrites().map(\.kind) == [.insert, .insert])
        #expect(Fixtures.ids(try #require(try reopened.page(at: 1, in: Fixtures.posts.key)).items) == [4, 5, -2])
    }

    @Test func aRefreshKeepsTheItemWhereItWasPlacedUntilTheServerHasIt() throws {
        try insert(-1)
        try insert(-2, at: .last)
        try store.savePage(Fixtures.page([6, 1, 2], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        #expect(try pageIDs(0) == [-1, 6, 1, 2])
        try store.savePage(Fixtures.page([3, 4, 5], token: PageToken(2), next: nil), at: 1, in: Fixtures.posts)
        #expect(try pageIDs(1) == [3, 4, 5, -2])
        // The same page again is not modified: the item stays.
        try store.savePageIfChanged(
            Fixtures.page([3, 4, 5], token: PageToken(2), next: nil), at: 1, in: Fixtures.posts)
        #expect(try pageIDs(1) == [3, 4, 5, -2])
    }

    @Test func anAcknowledgedInsertMovesWhereTheServersPagesPutItThoughPageOneWasFetchedWhileItWaited() throws {
        let write = try insert(-1)
        // Page 1 fetched while the insert waited: the item stays pinned on it.
        try store.savePage(Fixtures.page([1, 2, 3], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        #expect(try pageIDs(0) == [-1, 1, 2, 3])
        try store.acknowledgeWrite(
            write.id, serverJSON: Data(#"{"id":70,"label":"new"}"#.utf8), serverKey: .integer(70))
        // The server puts it last: the same page 1 again is not "unchanged", and the item leaves it.
        let save = try store.savePageIfChanged(
            Fixtures.page([1, 2, 3], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        #expect(save.outcome == .changed)
        #expect(try pageIDs(0) == [1, 2, 3])
        try store.savePageIfChanged(
            Fixtures.page([4, 5, 70], token: PageToken(2), next: nil, label: "v2"), at: 1, in: Fixtures.posts)
        #expect(try pageIDs(1) == [4, 5, 70])
    }

    @Test func anAcknowledgedInsertTakesTheServersIDAndItsLaterWritesNameIt() throws {
        let write = try insert(-1)
        let merge = try store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"label": "edited"}"#.utf8), url: "https://api.test/posts/-1/?x=1"),
            type: "Post", key: .integer(-1))
        try store.acknowledgeWrite(
            write.id, serverJSON: Data(#"{"id":70,"label":"new"}"#.utf8), serverKey: .integer(70))
        #expect(try pageIDs(0) == [70, 1, 2, 3])
        #expect(try store.item(type: "Post", key: .integer(-1)) == nil)
        let stored = try #require(try store.item(type: "Post", key: .integer(70)))
        #expect(String(decoding: stored.item.json, as: UTF8.self) == #"{"id":70,"label":"edited"}"#)
        #expect(try store.pendingWrites().map(\.id) == [merge.id])
        #expect(try store.pendingWrites().map(\.url) == ["https://api.test/posts/70/?x=1"])
        // From now on the server's pages decide where it stands.
        try store.savePage(Fixtures.page([1, 2, 3], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        #expect(try pageIDs(0) == [1, 2, 3])
    }

    @Test func anInsertTheServerListedAlreadyGivesWayToTheServersItem() throws {
        let write = try insert(-1)
        // A page brought the server's item 70 before the insert's answer came back.
        try store.savePage(Fixtures.page([70, 1, 2], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        #expect(try pageIDs(0) == [-1, 70, 1, 2])
        try store.acknowledgeWrite(
            write.id, serverJSON: Data(#"{"id":70,"label":"new"}"#.utf8), serverKey: .integer(70))
        #expect(try pageIDs(0) == [70, 1, 2])
        #expect(try store.item(type: "Post", key: .integer(-1)) == nil)
        #expect(try store.pendingWrites().isEmpty)
    }

    @Test func discardingAnInsertDropsTheItemAndItsLaterWrites() throws {
        let write = try insert(-1, at: .last)
        try store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"label": "edited"}"#.utf8), url: "https://api.test/posts/-1/"),
            type: "Post", key: .integer(-1))
        try store.discardWrite(write.id)
        #expect(try pageIDs(1) == [4, 5])
        #expect(try store.item(type: "Post", key: .integer(-1)) == nil)
        #expect(try store.pendingWrites().isEmpty)
        #expect(try store.pages(in: Fixtures.posts.key).map(\.itemCount) == [3, 2])
    }

    @Test func anIDCachedAlreadyAListWithNoPageAndAnInsertQueuedAsAChangeAreRefused() throws {
        #expect(throws: SQLiteCacheError.self) { try insert(2) }
        let item = Fixtures.item(-1)
        #expect(throws: CacheError.listNotFound(key: "GET /none")) {
            try store.insertLocally(
                item, type: "Post", request: WriteRequest(kind: .insert, json: item.json, url: "https://api.test/"),
                into: "GET /none")
        }
        #expect(throws: SQLiteCacheError.self) {
            try store.writeLocally(
                WriteRequest(kind: .insert, json: item.json, url: "https://api.test/"), type: "Post", key: .integer(1))
        }
        #expect(try pageIDs(0) == [1, 2, 3])
        #expect(try store.pendingWrites().isEmpty)
    }
}
