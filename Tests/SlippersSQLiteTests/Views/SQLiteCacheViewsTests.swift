import Foundation
import GRDB
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct SQLiteCacheViewsTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    static func item(_ id: Int, _ json: String) -> RawItem {
        RawItem(key: .integer(id), json: Data(json.utf8))
    }

    func save(
        _ items: [RawItem], key: String = "https://api.example.com/posts",
        type: String = "posts@https://api.example.com"
    )
        throws
    {
        try store.savePage(
            Page(items: items, nextToken: nil), at: 0, in: CollectionDescriptor(key: key, itemType: type))
    }

    /// The rows of a view as another program reads them: a connection of its own, plain SQL.
    func rows(_ sql: String) throws -> [Row] {
        let queue = try DatabaseQueue(
            path: directory.path(),
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }())
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: sql) }
    }

    @Test func aViewHasAColumnPerMemberWithNestedObjectsFlattenedAndTypesInferred() throws {
        try save([
            Self.item(
                1,
                #"{"id": 1, "title": "Hello", "score": 2.5, "draft": true, "author": {"name": "Ann", "id": 7}, "tags": ["a"]}"#
            ),
            Self.item(
                2,
                #"{"id": 2, "title": "World", "score": 3, "draft": false, "author": {"name": "Bo", "id": 8}, "tags": []}"#
            ),
        ])
        let views = try store.itemViews()
        #expect(views.map(\.name) == ["posts"])
        let columns = try #require(views.first).columns
        #expect(columns.map(\.name) == ["author_id", "author_name", "draft", "id", "score", "tags", "title"])
        #expect(columns.map(\.type) == ["INTEGER", "TEXT", "INTEGER", "INTEGER", "REAL", "TEXT", "TEXT"])
        let found = try rows("SELECT cache_key, title, author_name, score, draft, tags FROM posts ORDER BY id")
        #expect(found.map { $0["title"] as String } == ["Hello", "World"])
        #expect(found.map { $0["author_name"] as String } == ["Ann", "Bo"])
        #expect(found.map { $0["score"] as Double } == [2.5, 3])
        #expect(found.map { $0["draft"] as Int } == [1, 0])
        #expect(found.map { $0["tags"] as String } == [#"["a"]"#, "[]"])
        #expect(found.map { $0["cache_key"] as Int } == [1, 2])
    }

    @Test func aPageThatBringsANewMemberAddsItsColumn() throws {
        try save([Self.item(1, #"{"id": 1, "title": "a"}"#)])
        try save([
            Self.item(1, #"{"id": 1, "title": "a"}"#), Self.item(2, #"{"id": 2, "title": "b", "mood": "sunny"}"#),
        ])
        #expect(try rows("SELECT mood FROM posts WHERE id = 2").first?["mood"] as String? == "sunny")
        #expect(try rows("SELECT count(*) AS n FROM posts").first?["n"] as Int? == 2)
    }

    @Test func everyAccountIsInOneViewWithAnAccountColumn() throws {
        for account in [Account.anonymous, Account("alice")] {
            try save(
                [Self.item(1, #"{"id": 1, "title": "of \#(account.name)"}"#)],
                key: CollectionKey("https://api.example.com/posts", account: account).description,
                type: CollectionKey.itemType("posts@https://api.example.com", account: account))
        }
        let found = try rows("SELECT cache_account, title FROM posts ORDER BY cache_account")
        #expect(found.map { $0["cache_account"] as String? } == [nil, "alice"])
        #expect(try store.itemViews().map(\.name) == ["posts"])
    }

    @Test func namesAreQuotedAndNeverThoseOfTheCachesTables() throws {
        try save([Self.item(1, #"{"id": 1, "na me": "x", "it's": "y"}"#)], key: "GET /items", type: "items")
        try save([Self.item(1, #"{"id": 1}"#)], key: "GET /my posts", type: "my \"posts\"")
        #expect(try Set(store.itemViews().map(\.name)) == ["items_items", "my \"posts\""])
        #expect(try rows(#"SELECT "na me", "it's" FROM items_items"#).first?["na me"] as String? == "x")
        #expect(try rows(#"SELECT id FROM "my ""posts""""#).count == 1)
    }

    @Test func twoOriginsOfOneNameKeepTheirFullTypes() throws {
        try save([Self.item(1, #"{"id": 1}"#)], key: "https://a.example/posts", type: "posts@https://a.example")
        try save([Self.item(1, #"{"id": 1}"#)], key: "https://b.example/posts", type: "posts@https://b.example")
        #expect(try store.itemViews().map(\.name) == ["posts@https://a.example", "posts@https://b.example"])
        #expect(try rows(#"SELECT id FROM "posts@https://b.example""#).count == 1)
    }

    @Test func itemsThatAreNotObjectsAddNoColumnAndSaveAsBefore() throws {
        try save([Self.item(1, "not json"), Self.item(2, "[1, 2]"), Self.item(3, #"{"id": 3}"#)])
        #expect(try store.itemViews().first?.columns.map(\.name) == ["id"])
        #expect(try store.cachedList("https://api.example.com/posts")?.items.count == 3)
    }

    @Test func refreshingRescansItemsWrittenOneByOne() throws {
        try save([Self.item(1, #"{"id": 1}"#)])
        try store.saveItem(Self.item(1, #"{"id": 1, "note": "local"}"#), type: "posts@https://api.example.com")
        try store.refreshItemViews()
        #expect(try rows("SELECT note FROM posts").first?["note"] as String? == "local")
    }

    @Test func aViewThatCannotBeMadeNeverStopsAPageFromBeingSaved() throws {
        try save([Self.item(1, #"{"id": 1}"#)])
        // A file damaged by hand: the views' own table is gone, so no view can be made.
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in try db.execute(sql: "DROP TABLE item_views") }
        try queue.close()
        try save([Self.item(1, #"{"id": 1}"#), Self.item(2, #"{"id": 2, "mood": "new member"}"#)])
        #expect(try store.cachedList("https://api.example.com/posts")?.items.count == 2)
        #expect(try rows("SELECT count(*) AS n FROM items").first?["n"] as Int? == 2)
    }

    @Test func aFileWhoseItemsWereCachedBeforeViewsHasThemOnceOpened() throws {
        try save([Self.item(1, #"{"id": 1, "title": "old"}"#)])
        try store.close()
        // As migration 0011 leaves a file: the members recorded, no view made.
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(sql: "DROP VIEW posts")
            try db.execute(sql: "DELETE FROM item_views")
        }
        try queue.close()
        _ = try SQLiteCache(path: directory.path())
        #expect(try rows("SELECT title FROM posts").first?["title"] as String? == "old")
    }
}
