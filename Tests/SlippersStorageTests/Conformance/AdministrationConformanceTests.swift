import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Testing

/// Changing a cache by hand (`CacheAdministration`): invalidating, evicting, collecting items no
/// page lists, vacuuming; on a file and on a real PostgreSQL server the test starts, the same
/// reports and the same cache after on both.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct AdministrationConformanceTests {
    private static let posts = ConformanceLists.posts
    private static let drafts = ListDescriptor(key: "GET /drafts", itemType: "Post")

    @Test func invalidatingKeepsPagesReadableAndEvictingRemovesAListAndTheItemsOnlyItListed() async throws {
        try await StorageBackends.expectSame { storage in
            _ = try await storage.savePage(ConformanceLists.page([1, 2], next: nil), at: 0, in: Self.posts)
            _ = try await storage.savePage(ConformanceLists.page([2, 3], next: nil), at: 0, in: Self.drafts)
            #expect(try await storage.invalidateAll() == 2)
            #expect(try await storage.list(Self.posts.key)?.invalidatedAt != nil)
            #expect(try await storage.page(at: 0, in: Self.posts.key)?.items.count == 2)
            var lines = try await ConformanceLists.outline(storage)
            let report = try await storage.evict(list: Self.drafts.key)
            #expect(report == EvictionReport(lists: 1, pages: 1, items: 1), "2 is still listed by posts")
            #expect(try await storage.item(type: "Post", key: .integer(3)) == nil)
            #expect(try await storage.item(type: "Post", key: .integer(2)) != nil)
            await #expect(throws: CacheError.listNotFound(key: "GET /none")) {
                _ = try await storage.evict(list: "GET /none")
            }
            lines.append("evicted \(report.lists) \(report.pages) \(report.items)")
            return lines + (try await ConformanceLists.outline(storage))
        }
    }

    @Test func evictingByAgeTakesTheListsFetchedBeforeADateAndVacuumKeepsTheRest() async throws {
        try await StorageBackends.expectSame { storage in
            _ = try await storage.savePage(ConformanceLists.page([1, 2], next: nil), at: 0, in: Self.posts)
            #expect(try await storage.evict(olderThan: Date(timeIntervalSinceNow: -3_600)) == EvictionReport())
            _ = try await storage.savePage(ConformanceLists.page([3], next: nil), at: 0, in: Self.drafts)
            let report = try await storage.evict(olderThan: Date(timeIntervalSinceNow: 3_600))
            #expect(report == EvictionReport(lists: 2, pages: 2, items: 3))
            #expect(try await storage.collectUnreferencedItems() == 0)
            try await storage.vacuum()
            #expect(try await storage.lists().isEmpty)
            return ["evicted \(report.lists) \(report.pages) \(report.items)"]
        }
    }
}
