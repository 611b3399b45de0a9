import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

private struct Post: Codable, Identifiable, CacheIdentifiable, Equatable, Sendable {
    let id: ID<Post>
    var title: String
    var createdAt: Date
}

private struct Customer: Codable, Identifiable, CacheIdentifiable, Equatable, Sendable {
    let id: String
    var email: String
}

@Suite struct RepositoryTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    private let date = Date(timeIntervalSince1970: 1_714_564_800)

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    @Test func savesAndReadsTypedPagesEncodedWithJsonProvider() throws {
        let posts = Repository<Post>(cache: store)
        let page = Page(items: [Post(id: 1, title: "One", createdAt: date), Post(id: 2, title: "Two", createdAt: date)])
        try posts.save(page, at: 0, in: "GET /posts")
        #expect(try posts.page(at: 0, in: "GET /posts") == page.items)
        #expect(try posts.items(in: "GET /posts") == page.items)
        #expect(try posts.item(ID<Post>(2))?.title == "Two")
        let raw = try #require(try store.item(type: "Post", key: .integer(1)))
        #expect(String(decoding: raw.item.json, as: UTF8.self).contains(#""created_at":"2024-05-01T12:00:00.000Z""#))
    }

    @Test func aLazyPageDecodesTheRangeAskedForAndAgreesWithTheWholePage() throws {
        let posts = Repository<Post>(cache: store)
        let items = (1...5).map { Post(id: ID($0), title: "Post \($0)", createdAt: date) }
        try posts.save(Page(items: items, nextToken: "2"), at: 0, in: "GET /posts")
        let page = try #require(try posts.lazyPage(at: 0, in: "GET /posts"))
        #expect(page.count == 5)
        #expect(page.info.index == 0)
        #expect(page.info.nextToken == "2")
        #expect(try page.items(0..<2) == Array(items[0..<2]))
        #expect(try page.items(2..<5) == Array(items[2..<5]))
        #expect(try page.items(3..<3).isEmpty)
        #expect(try page.allItems() == items)
        #expect(try posts.lazyPage(at: 1, in: "GET /posts") == nil)
    }

    @Test func aRangeOfAPageReadsAndDecodesOnlyThosePositions() throws {
        let posts = Repository<Post>(cache: store)
        let items = (1...5).map { Post(id: ID($0), title: "Post \($0)", createdAt: date) }
        try posts.save(Page(items: items, nextToken: "2"), at: 0, in: "GET /posts")
        #expect(try posts.page(at: 0, in: "GET /posts", positions: 0..<2) == Array(items[0..<2]))
        #expect(try posts.page(at: 0, in: "GET /posts", positions: 3..<10) == Array(items[3..<5]))
        #expect(try posts.page(at: 0, in: "GET /posts", positions: 7..<9) == [])
        #expect(try posts.page(at: 1, in: "GET /posts", positions: 0..<2) == nil)
        let stored = try #require(try store.page(at: 0, in: "GET /posts", positions: 1..<2))
        #expect(stored.info.itemCount == 5)
        #expect(stored.items.map(\.key) == [.integer(2)])

        // An undecodable item outside the range is never read.
        try store.savePage(
            Page(items: [Fixtures.item(1), RawItem(key: .integer(2), json: Data("not json".utf8))]), at: 0,
            in: ListDescriptor(key: "p", itemType: "Post"))
        let labelled = Repository<Fixtures.Labelled>(cache: store, itemType: "Post")
        #expect(try labelled.page(at: 0, in: "p", positions: 0..<1)?.map(\.label) == ["v1"])
        #expect(throws: DecodingError.self) { try labelled.page(at: 0, in: "p", positions: 0..<2) }
    }

    @Test func aLazyPageOnlyDecodesWhatItIsAskedFor() throws {
        try store.savePage(
            Page(items: [Fixtures.item(1), RawItem(key: .integer(2), json: Data("not json".utf8))]), at: 0,
            in: ListDescriptor(key: "p", itemType: "Post"))
        let page = try #require(
            try Repository<Fixtures.Labelled>(cache: store, itemType: "Post").lazyPage(at: 0, in: "p"))
        #expect(try page.items(0..<1).map(\.label) == ["v1"])
        #expect(throws: DecodingError.self) { try page.items(0..<2) }
    }

    @Test func savingOneItemUpdatesEveryPageThatListsIt() throws {
        let posts = Repository<Post>(cache: store)
        try posts.save(Page(items: [Post(id: 1, title: "One", createdAt: date)]), at: 0, in: "a")
        try posts.save(Page(items: [Post(id: 1, title: "One", createdAt: date)]), at: 0, in: "b")
        try posts.save(Post(id: 1, title: "Edited", createdAt: date))
        #expect(try posts.items(in: "a").map(\.title) == ["Edited"])
        #expect(try posts.items(in: "b").map(\.title) == ["Edited"])
    }

    @Test func stringIdsWork() throws {
        let customers = Repository<Customer>(cache: store)
        try customers.save(Page(items: [Customer(id: "cus_9s6XKzkNRiz8i3", email: "a@b.c")]), at: 0, in: "customers")
        #expect(try customers.item(key: .string("cus_9s6XKzkNRiz8i3"))?.email == "a@b.c")
    }

    @Test func aListOfAnotherTypeIsRefused() throws {
        try Repository<Post>(cache: store).save(Page(items: [Post(id: 1, title: "x", createdAt: date)]), at: 0, in: "p")
        #expect(throws: CacheError.itemTypeMismatch(list: "p", stored: "Post", requested: "Customer")) {
            try Repository<Customer>(cache: store).items(in: "p")
        }
        #expect(throws: CacheError.listNotFound(key: "nope")) {
            try Repository<Post>(cache: store).items(in: "nope")
        }
    }

    @Test func aStoredItemThatDoesNotMatchTheTypeIsADecodingError() throws {
        try store.savePage(Page(items: [Fixtures.item(1)]), at: 0, in: ListDescriptor(key: "p", itemType: "Post"))
        #expect(throws: DecodingError.self) { try Repository<Post>(cache: store).items(in: "p") }
    }
}
