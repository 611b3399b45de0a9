import Foundation
import GRDB
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct SQLiteCacheSearchTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    static let messages = ListDescriptor(key: "GET /messages", itemType: "Message")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    static func message(_ id: Int, _ title: String, body: String = "", author: String = "Ann") -> RawItem {
        let object: [String: Any] = ["id": id, "title": title, "body": body, "author": ["name": author, "id": 7]]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return RawItem(key: .integer(id), json: data)
    }

    func save(_ items: [RawItem], in list: ListDescriptor = messages, at index: Int = 0) throws {
        try store.savePage(Page(items: items, nextToken: nil), at: index, in: list)
    }

    func found(_ text: String, in scope: SearchScope = .list("GET /messages")) throws -> [Int] {
        Fixtures.ids(try store.search(text, in: scope))
    }

    @Test func caseAndDiacriticsAreIgnored() throws {
        try save([Self.message(1, "Café au lait"), Self.message(2, "Tea")])
        #expect(try found("cafe") == [1])
        #expect(try found("CAFÉ") == [1])
        #expect(try found("LAIT") == [1])
    }

    @Test func theLastWordIsAPrefixWhileItIsTyped() throws {
        try save([Self.message(1, "A message"), Self.message(2, "A mess")])
        #expect(try Set(found("mess")) == [1, 2])
        #expect(try found("mess ") == [2])
        #expect(try found("messa") == [1])
    }

    @Test func wordsAreANDedAndQuotesMakeAPhrase() throws {
        try save([
            Self.message(1, "new york pizza"), Self.message(2, "york new pizza"), Self.message(3, "new pizza"),
        ])
        #expect(try Set(found("pizza york")) == [1, 2])
        #expect(try found("\"new york\"") == [1])
        #expect(try found("\"new york\" pizza") == [1])
    }

    @Test func everyStringMemberIsSearchedAtAnyDepthButNotNumbersOrNames() throws {
        try save([Self.message(1, "Hello", body: "a body", author: "Zoë"), Self.message(2, "Other")])
        #expect(try found("zoe") == [1])
        #expect(try found("body") == [1])
        #expect(try found("author").isEmpty)
        #expect(try found("7").isEmpty)
    }

    @Test func moreRelevantItemsComeFirst() throws {
        try save([
            Self.message(1, "river", body: "a long body about many other things and places and people"),
            Self.message(2, "river river", body: "river"),
            Self.message(3, "nothing"),
        ])
        #expect(try found("river") == [2, 1])
    }

    @Test func anyTextIsSafeAndTextWithoutWordsFindsNothing() throws {
        try save([Self.message(1, "AND OR NOT near(x) * ^ col:umn \"quoted\"")])
        for text in [
            "\"", "\"\"", "*", "-", "(", ")", "AND", "OR", "NOT", "NEAR(a b)", "col:umn", "^x", "a\"b",
            "'; DROP TABLE items; --",
            "   ", "", "\u{0}", "🙂", "x*y", "{", "title:foo",
        ] {
            _ = try store.search(text, in: .list("GET /messages"))
        }
        #expect(try found("AND") == [1])
        #expect(try found("near(x)") == [1])
        #expect(try found("col:umn") == [1])
        #expect(try found("*").isEmpty)
        #expect(try found("").isEmpty)
        #expect(try found("  ").isEmpty)
        #expect(try store.item(type: "Message", key: .integer(1)) != nil)
    }

    @Test func aChangedItemIsFoundByItsNewValuesOnly() throws {
        try save([Self.message(1, "orange")])
        try save([Self.message(1, "banana")])
        #expect(try found("orange").isEmpty)
        #expect(try found("banana") == [1])
        try store.saveItem(Self.message(1, "cherry"), type: "Message")
        #expect(try found("banana").isEmpty)
        #expect(try found("cherry") == [1])
    }

    @Test func anItemWithAPendingWriteIsFoundByItsWrittenValues() throws {
        try save([Self.message(1, "draft")])
        try store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "published"}"#.utf8), url: "https://x.test/1"),
            type: "Message", key: .integer(1))
        #expect(try found("published") == [1])
        #expect(try found("draft").isEmpty)
        // A refresh that brings the server's copy keeps the written values in front.
        try save([Self.message(1, "server title")])
        #expect(try found("published") == [1])
        #expect(try found("server").isEmpty)
    }

    @Test func anItemDeletedLocallyIsNotFound() throws {
        try save([Self.message(1, "gone"), Self.message(2, "kept")])
        try store.writeLocally(
            WriteRequest(kind: .delete, json: nil, url: "https://x.test/1"), type: "Message", key: .integer(1))
        #expect(try found("gone").isEmpty)
        #expect(try found("gone", in: .itemType("Message")).isEmpty)
        #expect(try found("kept", in: .itemType("Message")) == [2])
    }

    @Test func evictedItemsAreNotFound() throws {
        try save([Self.message(1, "apple")])
        try store.evict(list: "GET /messages")
        #expect(try found("apple", in: .itemType("Message")).isEmpty)
        #expect(try store.search("apple", in: .list("GET /messages")).isEmpty)
    }

    @Test func aListFindsOnlyItsItemsAndATypeAllOfItsLists() throws {
        try save([Self.message(1, "apple")])
        try save([Self.message(2, "apple pie")], in: ListDescriptor(key: "GET /drafts", itemType: "Message"))
        #expect(try found("apple") == [1])
        #expect(try found("apple", in: .list("GET /drafts")) == [2])
        #expect(try Set(found("apple", in: .itemType("Message"))) == [1, 2])
        #expect(try found("apple", in: .list("GET /unknown")).isEmpty)
    }

    @Test func accountsNeverFindEachOthersItems() throws {
        let alice = Account("alice")
        let bob = Account("bob")
        for (account, title) in [(alice, "secret of alice"), (bob, "secret of bob")] {
            try save(
                [Self.message(1, title)],
                in: ListDescriptor(
                    key: ListKey("GET /messages", account: account).description,
                    itemType: ListKey.itemType("Message", account: account)))
        }
        let aliceKey = ListKey("GET /messages", account: alice).description
        #expect(
            try store.search("secret", in: .list(aliceKey)).map(\.json) == [
                Self.message(1, "secret of alice").json
            ])
        #expect(try found("bob", in: .list(aliceKey)).isEmpty)
        #expect(try found("secret", in: .itemType(ListKey.itemType("Message", account: bob))) == [1])
        #expect(try found("alice", in: .itemType(ListKey.itemType("Message", account: bob))).isEmpty)
        #expect(try found("secret", in: .itemType("Message")).isEmpty)
    }

    @Test func aRemovedAccountLeavesNothingToFind() throws {
        let alice = Account("alice")
        let type = ListKey.itemType("Message", account: alice)
        try save(
            [Self.message(1, "plum")],
            in: ListDescriptor(key: ListKey("GET /m", account: alice).description, itemType: type))
        try store.removeAccount(alice)
        #expect(try found("plum", in: .itemType(type)).isEmpty)
        #expect(try store.searchIndexAgreesWithItems())
        #expect(try store.itemViews().isEmpty)
        let raw = try Data(contentsOf: URL(fileURLWithPath: directory.path()))
        #expect(raw.range(of: Data("plum".utf8)) == nil)
        #expect(raw.range(of: Data("alice".utf8)) == nil)
    }

    @Test func theLimitBoundsTheMatches() throws {
        try save((1...20).map { Self.message($0, "same word") })
        #expect(try store.search("same", in: .list("GET /messages"), limit: 5).count == 5)
        #expect(try store.search("same", in: .list("GET /messages"), limit: 0).isEmpty)
    }

    @Test func theBestMatchesOfOtherListsDoNotHideAListsOwn() throws {
        let others = ListDescriptor(key: "GET /archive", itemType: "Message")
        try save((100..<400).map { Self.message($0, "river river river", body: "river") }, in: others)
        try save([Self.message(1, "river"), Self.message(2, "a river"), Self.message(3, "lake")])
        #expect(try Set(found("river")) == [1, 2])
        #expect(try found("river", in: .itemType("Message")).count == 50)
    }

    @Test func aTypeNeverSearchedIsNotIndexedUntilItsFirstSearch() throws {
        try save([Self.message(1, "quiet"), Self.message(2, "loud")])
        let indexedRows = {
            try DatabaseQueue(path: directory.path()).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item_search_data") ?? 0
            }
        }
        let before = try indexedRows()
        #expect(try store.searchableMembers(of: "Message").isEmpty)
        #expect(try found("quiet") == [1])
        #expect(try indexedRows() > before)
        try save([Self.message(3, "quieter")], at: 1)
        #expect(try Set(found("quiet")) == [1, 3])
        #expect(try store.searchIndexAgreesWithItems())
    }

    @Test func aReadOnlyStoreSaysItCannotIndexATypeAtItsFirstSearch() throws {
        try save([Self.message(1, "quiet")])
        try store.close()
        let readOnly = try SQLiteCache(path: directory.path(), mode: .readOnly)
        #expect(throws: SQLiteCacheError.notSearchable(path: directory.path(), type: "Message")) {
            try readOnly.search("quiet", in: .list("GET /messages"))
        }
        try readOnly.close()
        let writable = try SQLiteCache(path: directory.path())
        #expect(Fixtures.ids(try writable.search("quiet", in: .list("GET /messages"))) == [1])
        try writable.close()
        let again = try SQLiteCache(path: directory.path(), mode: .readOnly)
        #expect(Fixtures.ids(try again.search("quiet", in: .list("GET /messages"))) == [1])
    }

    @Test func itemsThatAreNotJSONAreKeptAndFindNothing() throws {
        try save([RawItem(key: .integer(1), json: Data("not json".utf8)), Self.message(2, "json")])
        #expect(try found("json") == [2])
        #expect(try found("not").isEmpty)
        try save([RawItem(key: .integer(1), json: Data("still not".utf8))])
        #expect(try store.searchIndexAgreesWithItems())
    }

    @Test func aRepositorySearchesItsTypeOrOneList() throws {
        let repository = Repository<Fixtures.Labelled>(cache: store)
        try repository.save(
            Page(items: [.init(id: 1, label: "crème brûlée"), .init(id: 2, label: "tart")], nextToken: nil), at: 0,
            in: "GET /desserts")
        #expect(try repository.search("creme").map(\.id) == [1])
        #expect(try repository.search("tar", in: "GET /desserts").map(\.id) == [2])
    }

    @Test func aFileCreatedBeforeSearchIsIndexedWhenOpened() throws {
        try save([Self.message(1, "early bird")])
        try store.close()
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(sql: "DROP TABLE item_search")
            try db.execute(sql: "DROP TABLE search_types")
            for name in ["insert", "update", "delete"] { try db.execute(sql: "DROP TRIGGER item_search_\(name)") }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '0010_search'")
        }
        try queue.close()
        let reopened = try SQLiteCache(path: directory.path())
        #expect(Fixtures.ids(try reopened.search("bird", in: .list("GET /messages"))) == [1])
        #expect(try reopened.searchIndexAgreesWithItems())
    }

    @Test func theIndexAgreesWithTheItemsAfterEveryKindOfWrite() throws {
        try store.setSearchableMembers([], of: "Message")
        try save([Self.message(1, "one"), Self.message(2, "two")])
        try save([Self.message(2, "two again"), Self.message(3, "three")])
        try store.saveItem(Self.message(4, "four"), type: "Message")
        try store.evict(list: "GET /messages")
        _ = try store.collectUnreferencedItems()
        #expect(try store.searchIndexAgreesWithItems())
    }

    @Test func aTypeThatNamesItsSearchableMembersIsSearchedInThoseOnly() throws {
        try save([Self.message(1, "visible", body: "hidden", author: "Ann")])
        #expect(try store.setSearchableMembers(["title", "author"], of: "Message"))
        #expect(try found("hidden").isEmpty)
        #expect(try found("visible") == [1])
        #expect(try found("ann") == [1])
        try save([Self.message(1, "visible", body: "hidden"), Self.message(2, "other", body: "hidden too")])
        #expect(try found("hidden").isEmpty)
        #expect(try found("other") == [2])
        #expect(try store.searchableMembers(of: "Message") == ["author", "title"])
        #expect(try !store.setSearchableMembers(["author", "title"], of: "Message"))
        #expect(try store.searchIndexAgreesWithItems())
        #expect(try store.setSearchableMembers([], of: "Message"))
        #expect(try Set(found("hidden")) == [1, 2])
        try store.evict(list: "GET /messages")
        _ = try store.collectUnreferencedItems()
        #expect(try store.searchIndexAgreesWithItems())
    }
}
