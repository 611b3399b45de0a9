import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct SQLiteCacheItemTypesTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
        for (key, type) in [
            ("https://a.example/posts", "posts@https://a.example"),
            ("https://b.example/posts", "posts@https://b.example"),
            ("https://a.example/users", "users@https://a.example"), ("GET /tags", "Tag"),
        ] {
            try store.savePage(Fixtures.page([1], next: nil), at: 0, in: ListDescriptor(key: key, itemType: type))
        }
    }

    @Test func aListKeyStandsForItsItemType() throws {
        #expect(try store.itemTypes(named: "https://b.example/posts") == ["posts@https://b.example"])
    }

    @Test func anItemTypeStandsForItself() throws {
        #expect(try store.itemTypes(named: "Tag") == ["Tag"])
        #expect(try store.itemTypes(named: "users@https://a.example") == ["users@https://a.example"])
    }

    @Test func aShortNameStandsForItsTypeOfEachOrigin() throws {
        #expect(try store.itemTypes(named: "users") == ["users@https://a.example"])
        #expect(try store.itemTypes(named: "posts") == ["posts@https://a.example", "posts@https://b.example"])
    }

    @Test func anUnknownNameStandsForNothing() throws {
        #expect(try store.itemTypes(named: "comments").isEmpty)
        #expect(try store.itemTypes(named: "post").isEmpty)
    }
}
