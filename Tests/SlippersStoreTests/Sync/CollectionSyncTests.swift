import Foundation
import Slippers
import SlippersStore
import SlippersTestSupport
import Testing

@Suite struct CollectionSyncTests {
    let directory: TemporaryDirectory
    let store: CacheStore
    let posts = CollectionDescriptor(key: "posts", itemType: "Post")

    init() throws {
        directory = try TemporaryDirectory()
        store = try CacheStore(path: directory.path())
    }

    @Test func pagesTheWholeListIntoTheStore() async throws {
        let source = ScriptedSource(ids: Array(1...23), pageSize: 5)
        var seen: [Int] = []
        let progress = try await CollectionSync(store: store, source: source, collection: posts).run {
            seen.append($0.pagesFetched)
        }
        #expect(progress.pagesFetched == 5)
        #expect(progress.itemsFetched == 23)
        #expect(progress.endReached)
        #expect(progress.total == 23)
        #expect(!progress.resumed)
        #expect(seen == [1, 2, 3, 4, 5])
        #expect(try Fixtures.ids(#require(try store.cachedList("posts")).items) == Array(1...23))
    }

    @Test func aSecondRunResumesAfterTheLastCommittedPage() async throws {
        let source = ScriptedSource(ids: Array(1...23), pageSize: 5)
        let sync = CollectionSync(store: store, source: source, collection: posts)
        #expect(try await sync.run(maxPages: 2).pagesFetched == 2)
        let second = try await sync.run()
        #expect(second.resumed)
        #expect(second.startIndex == 2)
        #expect(second.pagesFetched == 3)
        #expect(source.pagesAskedFor == [1, 2, 3, 4, 5])
        #expect(try Fixtures.ids(#require(try store.cachedList("posts")).items) == Array(1...23))
        let third = try await sync.run()
        #expect(third.pagesFetched == 0 && third.endReached)
        #expect(source.requests.count == 5)
    }

    @Test func refreshStartsAgainAtTheFirstPage() async throws {
        let source = ScriptedSource(ids: Array(1...10), pageSize: 5)
        let sync = CollectionSync(store: store, source: source, collection: posts)
        try await sync.run()
        source.setIDs([11] + Array(1...10))
        let progress = try await sync.run(refresh: true)
        #expect(progress.startIndex == 0 && progress.pagesFetched == 3)
        #expect(try Fixtures.ids(#require(try store.cachedList("posts")).items) == [11] + Array(1...10))
        #expect(try store.collection("posts")?.generation == 2)
    }

    @Test func aFailureKeepsTheCommittedPagesAndTheNextRunContinues() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        let sync = CollectionSync(store: store, source: source, collection: posts)
        try await sync.run(maxPages: 1)
        source.failNext(1)
        await #expect(throws: ScriptedSource.Failure.self) { try await sync.run() }
        #expect(try store.collection("posts")?.currentPageCount == 1)
        #expect(try await sync.run().pagesFetched == 2)
        #expect(try Fixtures.ids(#require(try store.cachedList("posts")).items) == Array(1...15))
    }

    @Test func aTokenThatDoesNotAdvanceStopsTheRunInsteadOfLooping() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        source.repeatTokens()
        await #expect(throws: StoreError.tokenDidNotAdvance(collection: "posts", token: "2")) {
            try await CollectionSync(store: store, source: source, collection: posts).run()
        }
        #expect(source.requests.count == 2)
    }

    @Test func cancellingDuringAFetchLeavesTheStoreUnchangedForThatPage() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        let sync = CollectionSync(store: store, source: source, collection: posts)
        try await sync.run(maxPages: 1)
        await source.hold()
        let task = Task { try await sync.run() }
        await source.waitForHeldRequest()
        task.cancel()
        await source.release()
        await #expect(throws: CancellationError.self) { try await task.value }
        let info = try #require(try store.collection("posts"))
        #expect(info.currentPageCount == 1)
        #expect(info.resumeToken == "2")
    }
}
