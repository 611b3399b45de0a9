import Foundation
import GRDB
import Slippers
import SlippersStorage
import SlippersTestSupport
import Testing

@testable import SlippersSQLite

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
            Page(items: items, nextToken: nil), at: 0, in: ListDescriptor(key: key, itemType: type))
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

    /// The recorded members (`member/nested=kinds`, sorted), checked against what SQLite's
    /// `json_each` reads in every cached item.
    func recordedMembersAgreeWithSQLite(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let recorded = try rows("SELECT item_type, member, nested, kinds FROM item_members ORDER BY 1, 2, 3")
            .map { "\($0[1] as String)/\($0[2] as String)=\($0[3] as Int)" }
        let queue = try DatabaseQueue(path: directory.path())
        defer { try? queue.close() }
        let read = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT i.type, e.key AS member, '' AS nested, \(String(format: ItemViews.kindBits, "e.type")) AS kind
                    FROM items i, json_each(i.json) e WHERE json_valid(i.json) AND json_type(i.json) = 'object'
                    UNION
                    SELECT i.type, e.key, f.key, \(String(format: ItemViews.kindBits, "f.type"))
                    FROM items i, json_each(i.json) e, json_each(e.value) f
                    WHERE json_valid(i.json) AND json_type(i.json) = 'object' AND e.type = 'object'
                    """)
        }
        var expected: [String: Int] = [:]
        for row in read { expected["\(row[1] as String)/\(row[2] as String)", default: 0] |= row[3] as Int }
        #expect(recorded == expected.keys.sorted().map { "\($0)=\(expected[$0]!)" }, sourceLocation: sourceLocation)
        return recorded
    }

    @Test func itemsOfOnePageWithTheSameMembersButOtherKindsOrNestedMembersAddThemAll() throws {
        // Runs of items of one shape, each run broken by an item that differs from the one before
        // only in a kind, a nested member, the order of its members or how a key is written.
        let jsons = [
            #"{"id": 1, "a": 1, "o": {"x": 1}}"#, #"{"id": 2, "a": 2, "o": {"x": 2}}"#,
            #"{"id": 3, "a": "s", "o": {"x": 3}}"#, #"{"id": 4, "a": 1.5, "o": {"x": 4}}"#,
            #"{"id": 5, "a": 1, "o": {"y": 5}}"#, #"{"id": 6, "a": 1, "o": {"x": null}}"#,
            #"{"id": 7, "o": {"x": 1}, "a": 1}"#, #"{"id": 8, "a": 1, "o": {"x": 1}, "b": []}"#,
            #"{"id": 9, "caf\u00e9": 1}"#, #"{"id": 10, "café": "s"}"#, #"{"id": 11, "a": 1, "o": [1]}"#,
            #"{"id": 12, "a": 1, "o": {}}"#, #"[12]"#, #"{"id": 14, "a": 1, "o": {"x": {"z": 1}}}"#,
        ]
        try save(jsons.enumerated().map { Self.item($0.offset, $0.element) })
        let recorded = try recordedMembersAgreeWithSQLite()
        #expect(recorded.contains("a/=\(8 | 16 | 32)"))
        #expect(recorded.contains("o/x=\(1 | 8 | 128)"))
        #expect(recorded.contains("caf\u{e9}/=\(8 | 32)"))
    }

    @Test func theMembersOfSavedItemsAreTheMembersSQLiteReadsInTheirJSON() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let pages = [
            [
                #"{"id": 1, "n": null, "t": true, "f": false, "i": -0, "r": 1E5, "s": "x", "a": [1], "o": {}}"#,
                #"{"id": 2, "caf\u00e9": 1, "q\"uote": 2, "o": {"x\ny": 1.5, "z": {"deep": 1}, "x\ny": "s"}}"#,
                #"{"id": 3, "id": "3", "r": 2, "o": null, "a": {"now": "an object"}}"#,
            ],
            [#"[1, 2]"#, #""text""#, #"{"id": 5, "deep": \#(deep)}"#],
        ]
        for (index, jsons) in pages.enumerated() {
            let items = jsons.enumerated().map { Self.item(index * 10 + $0.offset, $0.element) }
            try save(items, key: "https://api.example.com/posts\(index)")
        }
        let recorded = try recordedMembersAgreeWithSQLite()
        #expect(recorded.contains("caf\u{e9}/=8"))
        #expect(recorded.contains("o/x\ny=48"))
        #expect(recorded.contains("deep/=64"))
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

    @Test func anItemAPageRewritesBringsItsNewMembersAndOnlyTheJSONItKeeps() throws {
        try save([Self.item(1, #"{"id": 1, "title": "a"}"#), Self.item(2, #"{"id": 2}"#)])
        // Item 1 rewritten with a member more; item 2 twice on the page, the later JSON kept.
        try save([
            Self.item(1, #"{"id": 1, "title": "a", "mood": "sunny"}"#), Self.item(2, #"{"id": 2, "lost": 1}"#),
            Self.item(2, #"{"id": 2, "kept": "s"}"#), Self.item(3, #"{"id": 3, "gone": 1}"#),
            Self.item(3, #"{"id": 3, "new": true}"#),
        ])
        let recorded = try recordedMembersAgreeWithSQLite()
        #expect(recorded.contains("mood/=32"))
        #expect(recorded.contains("kept/=32"))
        #expect(recorded.contains("new/=2"))
        #expect(!recorded.contains { $0.hasPrefix("lost/") || $0.hasPrefix("gone/") })
    }

    @Test func everyAccountIsInOneViewWithAnAccountColumn() throws {
        for account in [Account.anonymous, Account("alice")] {
            try save(
                [Self.item(1, #"{"id": 1, "title": "of \#(account.name)"}"#)],
                key: ListKey("https://api.example.com/posts", account: account).description,
                type: ListKey.itemType("posts@https://api.example.com", account: account))
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
        try store.rebuildItemViews()
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
