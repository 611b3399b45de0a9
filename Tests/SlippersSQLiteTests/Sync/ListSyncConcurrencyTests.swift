import Dispatch
import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Synchronization
import Testing

@testable import SlippersSQLite

/// Syncs that ask for several pages at once, and syncs that ask for the next page while they save.
@Suite struct ListSyncConcurrencyTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let posts = ListDescriptor(key: "posts", itemType: "Post")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    private func sync(
        _ source: AddressedSource, concurrency: Int, controller: AdaptiveConcurrency? = nil
    ) -> ListSync<AddressedSource> {
        var sync = ListSync(storage: store, source: source, list: posts)
        sync.concurrency = controller ?? AdaptiveConcurrency(maximum: concurrency)
        return sync
    }

    private func storedIDs() throws -> [Int] {
        try Fixtures.ids(#require(try store.cachedList("posts")).items)
    }

    @Test func pagesAskedForTogetherAreSavedInOrder() async throws {
        let source = AddressedSource(ids: Array(1...203), pageSize: 10)
        var saved: [Int] = []
        let controller = AdaptiveConcurrency(maximum: 4)
        let progress = try await sync(source, concurrency: 4, controller: controller).run(limits: .init()) {
            saved.append($0.pagesFetched)
        }
        #expect(progress.endReached)
        #expect(progress.pagesFetched == 21)
        #expect(progress.itemsFetched == 203)
        #expect(saved == Array(1...21))
        #expect(try storedIDs() == Array(1...203))
        #expect(controller.snapshot.maxInFlight > 1)
        #expect(source.mostInFlight <= 4)
    }

    @Test func withATotalNoPagePastTheEndIsAskedFor() async throws {
        let source = AddressedSource(ids: Array(1...95), pageSize: 10)
        try await sync(source, concurrency: 8).run(limits: .init())
        #expect(source.pagesAskedFor.sorted() == Array(1...10))
        #expect(try storedIDs() == Array(1...95))
    }

    @Test func withoutATotalNoPageIsAskedForPastTheOneThatEndsTheList() async throws {
        let source = AddressedSource(ids: Array(1...100), pageSize: 10, sendsTotal: false)
        try await sync(source, concurrency: 4).run(limits: .init())
        let asked = source.pagesAskedFor
        #expect(Set(asked).isSuperset(of: 1...10))
        // Page 10 is short of nothing but says it is the last: with no known end, each page is asked
        // for once the one before it arrived, so nothing went past it.
        #expect(asked.filter { $0 > 10 }.isEmpty)
        #expect(asked.count == Set(asked).count)
        #expect(try storedIDs() == Array(1...100))
    }

    @Test func aResumedRunAsksForNoPageItHasSaved() async throws {
        let source = AddressedSource(ids: Array(1...120), pageSize: 10)
        let first = try await sync(source, concurrency: 4).run(limits: .init(maxPages: 5))
        #expect(first.pagesFetched == 5)
        #expect(try store.list("posts")?.currentPageCount == 5)
        let askedBefore = source.pagesAskedFor.count
        let second = try await sync(source, concurrency: 4).run(limits: .init())
        #expect(second.startIndex == 5)
        #expect(second.endReached)
        #expect(source.pagesAskedFor.dropFirst(askedBefore).allSatisfy { $0 > 5 })
        #expect(try storedIDs() == Array(1...120))
    }

    @Test func maxPagesBoundsThePagesAskedFor() async throws {
        let source = AddressedSource(ids: Array(1...200), pageSize: 10)
        let progress = try await sync(source, concurrency: 6).run(limits: .init(maxPages: 3))
        #expect(progress.pagesFetched == 3)
        #expect(source.pagesAskedFor.sorted() == [1, 2, 3])
    }

    @Test func aFailingPageStopsTheRunWithThePagesBeforeItSaved() async throws {
        let source = AddressedSource(ids: Array(1...100), pageSize: 10)
        try await sync(source, concurrency: 1).run(limits: .init(maxPages: 2))
        source.base.failNext(1)
        await #expect(throws: ScriptedSource.Failure.self) {
            try await sync(source, concurrency: 4).run(limits: .init())
        }
        let saved = try #require(try store.list("posts")).currentPageCount
        #expect(saved >= 2)
        try await sync(source, concurrency: 4).run(limits: .init())
        #expect(try storedIDs() == Array(1...100))
    }

    @Test func cancellingLeavesAPrefixThatTheNextRunCompletes() async throws {
        let source = AddressedSource(ids: Array(1...300), pageSize: 10)
        let run = Task { [self] in try await sync(source, concurrency: 4).run(limits: .init()) }
        while (try store.list("posts")?.currentPageCount ?? 0) < 3 {
            try await Task.sleep(for: .milliseconds(2))
        }
        run.cancel()
        _ = await run.result
        let saved = try #require(try store.list("posts")).currentPageCount
        #expect(try Fixtures.ids(#require(try store.cachedList("posts")).items) == Array(1...(saved * 10)))
        let askedBefore = source.pagesAskedFor.count
        try await sync(source, concurrency: 4).run(limits: .init())
        #expect(source.pagesAskedFor.dropFirst(askedBefore).allSatisfy { $0 > saved })
        #expect(try storedIDs() == Array(1...300))
    }

    @Test func aRepeatedPageStopsTheConcurrentWalkToo() async throws {
        let source = AddressedSource(ids: Array(1...50), pageSize: 10)
        source.base.repeatTokens()
        await #expect(throws: CacheError.self) {
            try await sync(source, concurrency: 4).run(limits: .init())
        }
        #expect(try store.list("posts")?.currentPageCount ?? 0 <= 1)
    }

    @Test func theNextPageOfASequentialListIsAskedForBeforeThePageBeforeItIsSaved() async throws {
        let source = ScriptedSource(ids: Array(1...30), pageSize: 10)
        let secondAsked = DispatchSemaphore(value: 0)
        let watcher = Task {
            while !source.pagesAskedFor.contains(2) { try await Task.sleep(for: .milliseconds(1)) }
            secondAsked.signal()
        }
        defer { watcher.cancel() }
        var overlapped: Bool?
        try await ListSync(storage: store, source: source, list: posts).run(limits: .init()) { progress in
            // Page 1 is saved; page 2 was asked for before that, not after this callback.
            if progress.pagesFetched == 1 { overlapped = secondAsked.wait(timeout: .now() + 10) == .success }
        }
        #expect(overlapped == true)
        #expect(source.pagesAskedFor == [1, 2, 3])
        #expect(try storedIDs() == Array(1...30))
    }
    @Test func pagesThatArriveTogetherAreSavedInOneTransactionInOrder() async throws {
        let log = CommitLog()
        let traced = try SQLiteCache(path: directory.path(), mode: .readWrite, tracingStatements: { log.note($0) })
        let source = AddressedSource(ids: Array(1...400), pageSize: 10)
        var sync = ListSync(storage: traced, source: source, list: posts)
        sync.concurrency = AdaptiveConcurrency(maximum: 4)
        // Every wait counts as short, however loaded the machine: pages read are saved eight at a time.
        sync.longWait = .seconds(3600)
        var saved: [Int] = []
        // The commits made when each page was reported saved: pages saved together report one count.
        var commitsWhenSaved: [Int] = []
        let progress = try await sync.run(limits: .init()) {
            saved.append($0.pagesFetched)
            commitsWhenSaved.append(log.commits)
        }
        #expect(progress.endReached)
        #expect(progress.itemsFetched == 400)
        #expect(saved == Array(1...40))
        #expect(try storedIDs() == Array(1...400))
        // At most eight pages a transaction; the first may be alone when its wait was long.
        let transactions = Set(commitsWhenSaved).count
        #expect(transactions >= 5 && transactions <= 6)
        #expect(Dictionary(grouping: commitsWhenSaved, by: { $0 }).values.allSatisfy { $0.count <= 8 })
    }

    @Test func aSlowSourceFindsEachPageSavedBeforeItAnswersTheNext() async throws {
        let source = SlowSource(base: ScriptedSource(ids: Array(1...30), pageSize: 5), store: store)
        let progress = try await ListSync(storage: store, source: source, list: posts).run(limits: .init())
        #expect(progress.itemsFetched == 30)
        // Page n is answered after 100 ms, by when the pages before it are saved.
        for (number, saved) in source.savedWhenAnswered { #expect(saved == number - 1, "page \(number)") }
        #expect(source.savedWhenAnswered.count == 6)
        #expect(try storedIDs() == Array(1...30))
    }

    /// Counts the transactions committed on a connection.
    private final class CommitLog: Sendable {
        private let count = Mutex(0)
        func note(_ sql: String) {
            if sql.trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("COMMIT") { count.withLock { $0 += 1 } }
        }
        var commits: Int { count.withLock { $0 } }
    }

    /// A ``ScriptedSource`` that answers each page after 100 ms, noting how many pages the cache held then.
    private final class SlowSource: PageSource, Sendable {
        let base: ScriptedSource
        let store: SQLiteCache
        private let saved = Mutex<[Int: Int]>([:])

        init(base: ScriptedSource, store: SQLiteCache) {
            (self.base, self.store) = (base, store)
        }

        /// Page number (from 1) to the pages the cache held when it was answered.
        var savedWhenAnswered: [Int: Int] { saved.withLock { $0 } }

        func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
            try await Task.sleep(for: .milliseconds(100))
            let held = try store.list("posts")?.currentPageCount ?? 0
            saved.withLock { $0[request.token?.intValue ?? 1] = held }
            return try await base.fetch(request)
        }
    }
}
