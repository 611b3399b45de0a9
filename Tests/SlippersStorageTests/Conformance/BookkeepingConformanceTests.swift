import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Testing

/// What a walk asks the storage beside saving pages (`SyncStorage`): the tokens walked, the ids no
/// page lists yet, a newest-first list's head, unchanged items, watermarks and the sync's hooks;
/// on a file and on a real PostgreSQL server the test starts, the same answers on both.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct BookkeepingConformanceTests {
    private static let posts = ConformanceLists.posts

    @Test func theWalkSoFarIsItsTokensAndTheIdsItsPagesList() async throws {
        try await StorageBackends.expectSame { storage in
            await storage.syncWillStart(Self.posts.key)
            _ = try await storage.savePage(ConformanceLists.page([1, 2], next: "b"), at: 0, in: Self.posts)
            _ = try await storage.savePage(ConformanceLists.page([3, 4], token: "b", next: "c"), at: 1, in: Self.posts)
            storage.pageWillBeRetried(at: 2, in: Self.posts.key, error: CancellationError(), wait: .milliseconds(1))
            await storage.syncDidEnd(Self.posts.key)
            let head = try #require(try await storage.list(Self.posts.key))
            let walked = try await storage.walkedTokens(in: Self.posts.key, before: 2, generation: head.generation)
            #expect(walked.contains("b"))
            #expect(
                try await storage.walkedTokens(in: Self.posts.key, before: 1, generation: head.generation + 1).isEmpty)
            let unlisted = try await storage.unlistedCount(
                of: [.integer(2), .integer(3), .integer(9)], before: 1, in: Self.posts.key)
            #expect(unlisted == 2, "3 is listed only from page 1 on, 9 by none")
            return ["walked \(walked.map(\.rawValue).sorted())", "unlisted \(unlisted)"]
                + (try await ConformanceLists.outline(storage))
        }
    }

    @Test func aNewestFirstHeadIsMergedAtTheTopAndItsUnchangedItemsAreCounted() async throws {
        try await StorageBackends.expectSame { storage in
            #expect(try await storage.newestFirst(Self.posts.key) == nil)
            await #expect(throws: CacheError.self) { try await storage.setNewestFirst(true, for: Self.posts.key) }
            _ = try await storage.savePage(ConformanceLists.page([5, 4], next: "2"), at: 0, in: Self.posts)
            _ = try await storage.savePage(ConformanceLists.page([3, 2], token: "2", next: nil), at: 1, in: Self.posts)
            try await storage.setNewestFirst(true, for: Self.posts.key)
            #expect(try await storage.newestFirst(Self.posts.key) == true)
            let fresh = [ConformanceLists.item(7), ConformanceLists.item(6), ConformanceLists.item(5, "edited")]
            #expect(try await storage.unchangedCount(of: fresh + [ConformanceLists.item(4)], in: Self.posts.key) == 1)
            let merge = try await storage.mergeHead(fresh, total: 6, in: Self.posts)
            #expect(merge.added == 2 && merge.updated == 1)
            return ["merge \(merge.added) \(merge.updated)"] + (try await ConformanceLists.outline(storage))
        }
    }

    @Test func aWatermarkIsKeptReplacedAndRemoved() async throws {
        try await StorageBackends.expectSame { storage in
            _ = try await storage.savePage(ConformanceLists.page([1], next: nil), at: 0, in: Self.posts)
            #expect(try await storage.watermark(of: Self.posts.key) == nil)
            let first = SyncWatermark(field: "updated_at", value: "2026-11-01T00:00:00Z")
            try await storage.saveWatermark(first, of: Self.posts.key)
            #expect(try await storage.watermark(of: Self.posts.key) == first)
            var pending = first
            pending.pendingSince = "2026-11-02T00:00:00Z"
            try await storage.saveWatermark(pending, of: Self.posts.key)
            let kept = try await storage.watermark(of: Self.posts.key)
            #expect(kept == pending)
            try await storage.saveWatermark(nil, of: Self.posts.key)
            #expect(try await storage.watermark(of: Self.posts.key) == nil)
            return ["kept \(kept?.field ?? "-") \(kept?.value ?? "-") \(kept?.pendingSince ?? "-")"]
        }
    }
}
