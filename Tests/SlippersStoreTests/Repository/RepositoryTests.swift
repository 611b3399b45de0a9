import Foundation
import Slippers
import SlippersStore
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
    let store: CacheStore
    private let date = Date(timeIntervalSince1970: 1_714_564_800)

    init() throws {
        directory = try TemporaryDirectory()
        store = try CacheStore(path: directory.path())
    }

    @Test func savesAndReadsTypedPagesEncodedWithJsonProvider() throws {
        let posts = Repository<Post>(store: store)
        let page = Page(items: [Post(id: 1, title: "One", createdAt: date), Post(id: 2, title: "Two", createdAt: date)])
        try posts.save(page, at: 0, in: "GET /posts")
        #expect(try posts.page(at: 0, in: "GET /posts") == page.items)
        #expect(try posts.items(in: "GET /posts") == page.items)
        #expect(try posts.item(ID<Post>(2))?.title == "Two")
        let raw = try #require(try store.item(type: "Post", key: .integer(1)))
        #expect(String(decoding: raw.item.json, as: UTF8.self).contains(#""created_at":"2024-05-01T12:00:00.000Z""#))
    }

    @Test func savingOneItemUpdatesEveryPageThatListsIt() throws {
        let posts = Repository<Post>(store: store)
        try posts.save(Page(items: [Post(id: 1, title: "One", createdAt: date)]), at: 0, in: "a")
        try posts.save(Page(items: [Post(id: 1, title: "One", createdAt: date)]), at: 0, in: "b")
        try posts.save(Post(id: 1, title: "Edited", createdAt: date))
        #expect(try posts.items(in: "a").map(\.title) == ["Edited"])
        #expect(try posts.items(in: "b").map(\.title) == ["Edited"])
    }

    @Test func stringIdsWork() throws {
        let customers = Repository<Customer>(store: store)
        try customers.save(Page(items: [Customer(id: "cus_9s6XKzkNRiz8i3", email: "a@b.c")]), at: 0, in: "customers")
        #expect(try customers.item(key: .string("cus_9s6XKzkNRiz8i3"))?.email == "a@b.c")
    }

    @Test func aCollectionOfAnotherTypeIsRefused() throws {
        try Repository<Post>(store: store).save(Page(items: [Post(id: 1, title: "x", createdAt: date)]), at: 0, in: "p")
        #expect(throws: StoreError.itemTypeMismatch(collection: "p", stored: "Post", requested: "Customer")) {
            try Repository<Customer>(store: store).items(in: "p")
        }
        #expect(throws: StoreError.collectionNotFound(key: "nope")) {
            try Repository<Post>(store: store).items(in: "nope")
        }
    }

    @Test func aStoredItemThatDoesNotMatchTheTypeIsADecodingError() throws {
        try store.savePage(Page(items: [Fixtures.item(1)]), at: 0, in: CollectionDescriptor(key: "p", itemType: "Post"))
        #expect(throws: DecodingError.self) { try Repository<Post>(store: store).items(in: "p") }
    }
}
