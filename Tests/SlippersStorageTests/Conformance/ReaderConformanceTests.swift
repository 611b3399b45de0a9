import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Testing

/// What reading a cache answers (`CacheReader`), on a file and on a real PostgreSQL server the test
/// starts: the same lists, pages, items, item types, typed keys, counts and diagnosis on both.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct ReaderConformanceTests {
    private static let posts = ListDescriptor(
        key: ListKey("https://api.example.com/posts", styleFingerprint: "1a2b3c4d").description,
        itemType: "posts@https://api.example.com")
    private static let tokened = ListDescriptor(
        key: "https://api.example.com/feed?access_token=***", itemType: "feed@https://api.example.com")
    private static let mirrored = ListDescriptor(
        key: "https://mirror.example.org/posts", itemType: "posts@https://mirror.example.org")

    @Test func listsPagesItemsAndTheirTypesReadTheSameOnBothBackends() async throws {
        try await StorageBackends.expectSame { storage in
            _ = try await storage.savePage(ConformanceLists.page([1, 2], next: "2"), at: 0, in: Self.posts)
            _ = try await storage.savePage(ConformanceLists.page([3], token: "2", next: nil), at: 1, in: Self.posts)
            _ = try await storage.savePage(ConformanceLists.page([1], next: nil), at: 0, in: Self.mirrored)
            var lines = try await ConformanceLists.outline(storage)
            // Every item of a list, in its order; a page past the last is none.
            var ids: [String] = []
            try await storage.forEachItem(in: Self.posts.key) { ids.append($0.key.description) }
            #expect(ids == ["1", "2", "3"])
            #expect(try await storage.page(at: 2, in: Self.posts.key) == nil)
            #expect(try await storage.item(type: Self.posts.itemType, key: .integer(9)) == nil)
            // A short type name stands for each origin's; a full one for itself alone.
            let types = try await storage.itemTypes(named: "posts")
            #expect(Set(types) == [Self.posts.itemType, Self.mirrored.itemType])
            #expect(try await storage.itemTypes(named: Self.mirrored.itemType) == [Self.mirrored.itemType])
            #expect(try await storage.itemTypes(named: "comments").isEmpty)
            lines.append("types \(types.sorted())")
            // A list URL typed with its credential finds the list whose key masks it.
            _ = try await storage.savePage(ConformanceLists.page([4], next: nil), at: 0, in: Self.tokened)
            let typed = try await storage.listKey(typed: "https://api.example.com/feed?access_token=abc")
            #expect(typed == Self.tokened.key)
            #expect(try await storage.listKey(typed: Self.posts.key) == Self.posts.key)
            #expect(try await storage.listKey(typed: "GET /none?token=x") == "GET /none?token=x")
            lines.append("typed \(typed)")
            return lines
        }
    }

    @Test func countsAndDiagnosisSayTheSameOfTheSameCache() async throws {
        try await StorageBackends.expectSame { storage in
            _ = try await storage.savePage(ConformanceLists.page([1, 2], next: "2"), at: 0, in: Self.posts)
            _ = try await storage.savePage(ConformanceLists.page([2, 3], token: "2", next: nil), at: 1, in: Self.posts)
            // Where the cache is differs by backend (a path, a database): it is said, never compared.
            #expect(!storage.locationDescription.isEmpty)
            let stats = try await storage.stats()
            #expect(stats.lists == 1 && stats.pages == 2 && stats.items == 3 && stats.unreferencedItems == 0)
            let diagnosis = try await storage.diagnose()
            #expect(diagnosis.isHealthy, "\(diagnosis)")
            #expect(diagnosis.schemaVersion != nil)
            return [
                "stats \(stats.lists) \(stats.pages) \(stats.items) \(stats.unreferencedItems) \(stats.accounts)",
                "healthy \(diagnosis.isHealthy) orphans \(diagnosis.orphans) pages \(diagnosis.inconsistentPages) "
                    + "incomplete \(diagnosis.incompleteLists)",
            ]
        }
    }
}
