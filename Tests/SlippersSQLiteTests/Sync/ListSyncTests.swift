import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Synchronization
import Testing

@testable import SlippersSQLite

@Suite struct ListSyncTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let posts = ListDescriptor(key: "posts", itemType: "Post")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    @Test func pagesTheWholeListIntoTheStore() async throws {
        let source = ScriptedSource(ids: Array(1...23), pageSize: 5)
        var seen: [Int] = []
        let progress = try await ListSync(storage: store, source: source, list: posts).run {
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
        let sync = ListSync(storage: store, source: source, list: posts)
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
        let sync = ListSync(storage: store, source: source, list: posts)
        try await sync.run()
        source.setIDs([11] + Array(1...10))
        let progress = try await sync.run(refresh: true)
        #expect(progress.startIndex == 0 && progress.pagesFetched == 3)
        #expect(try Fixtures.ids(#require(try store.cachedList("posts")).items) == [11] + Array(1...10))
        #expect(try store.list("posts")?.generation == 2)
    }

    @Test func aFailureKeepsTheCommittedPagesAndTheNextRunContinues() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        let sync = ListSync(storage: store, source: source, list: posts)
        try await sync.run(maxPages: 1)
        source.failNext(1)
        await #expect(throws: ScriptedSource.Failure.self) { try await sync.run() }
        #expect(try store.list("posts")?.currentPageCount == 1)
        #expect(try await sync.run().pagesFetched == 2)
        #expect(try Fixtures.ids(#require(try store.cachedList("posts")).items) == Array(1...15))
    }

    @Test func aTokenThatDoesNotAdvanceStopsTheRunInsteadOfLooping() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        source.repeatTokens()
        await #expect(throws: CacheError.tokenDidNotAdvance(list: "posts", token: "2")) {
            try await ListSync(storage: store, source: source, list: posts).run()
        }
        #expect(source.requests.count == 2)
    }

    @Test func cancellingDuringAFetchLeavesTheStoreUnchangedForThatPage() async throws {
        let source = ScriptedSource(ids: Array(1...15), pageSize: 5)
        let sync = ListSync(storage: store, source: source, list: posts)
        try await sync.run(maxPages: 1)
        await source.hold()
        let task = Task { try await sync.run() }
        await source.waitForHeldRequest()
        task.cancel()
        await source.release()
        await #expect(throws: CancellationError.self) { try await task.value }
        let info = try #require(try store.list("posts"))
        #expect(info.currentPageCount == 1)
        #expect(info.resumeToken == "2")
    }

    @Test func aFullDiskStopsARunWithEveryEarlierPageIntactAndTheNextRunCompletesTheList() async throws {
        let full = try TemporaryDirectory()
        let path = full.path()
        try SQLiteCache(path: path).close()
        let source = PaddedSource(count: 600, pageSize: 20)
        // Room for a few pages only: the 30-page list fills the file part way.
        let limited = try SQLiteCache(path: path, mode: .readWrite, tracingStatements: nil, maxPageCount: 40)
        let sync = ListSync(storage: limited, source: source, list: posts)
        await #expect(throws: SQLiteCacheError.diskFull(path: path)) { try await sync.run() }
        let saved = try #require(try limited.list("posts"))
        #expect(saved.currentPageCount > 0 && saved.currentPageCount < 30)
        #expect(try limited.diagnose().isHealthy)
        #expect(
            try Fixtures.ids(#require(try limited.cachedList("posts")).items) == Array(1...saved.currentPageCount * 20))
        try limited.close()
        #expect(
            SQLiteCacheError.diskFull(path: "c.sqlite").description.hasPrefix(
                "Disk full: cannot write the cache c.sqlite"))

        // Space freed: the next run continues after the saved pages and completes the list.
        let store = try SQLiteCache(path: path)
        let rest = try await ListSync(storage: store, source: source, list: posts).run()
        #expect(rest.startIndex == saved.currentPageCount)
        #expect(rest.endReached)
        #expect(try Fixtures.ids(#require(try store.cachedList("posts")).items) == Array(1...600))
        #expect(source.pagesAskedFor.filter { $0 <= saved.currentPageCount } == Array(1...saved.currentPageCount))
        #expect(try store.diagnose().isHealthy)
    }
}

/// Pages of items of a few hundred bytes each, numbered from 1; it records the page numbers asked for.
private final class PaddedSource: PageSource, Sendable {
    let count: Int
    let pageSize: Int
    private let asked = Mutex<[Int]>([])

    init(count: Int, pageSize: Int) {
        self.count = count
        self.pageSize = pageSize
    }

    /// The page numbers fetched, in order.
    var pagesAskedFor: [Int] { asked.withLock { $0 } }

    func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        let number = request.token?.intValue ?? 1
        asked.withLock { $0.append(number) }
        let ids = ((number - 1) * pageSize + 1)...min(number * pageSize, count)
        let padding = String(repeating: "x", count: 400)
        return .page(
            Page(
                items: ids.map { RawItem(key: .integer($0), json: Data(#"{"id":\#($0),"pad":"\#(padding)"}"#.utf8)) },
                token: request.token, nextToken: ids.upperBound < count ? PageToken(number + 1) : nil))
    }
}
