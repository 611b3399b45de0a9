import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Synchronization
import Testing

/// Every walk ends: cycles, repeated pages and pages that bring nothing new stop it, and a rerun adds nothing.
@Suite struct ListSyncWalkTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let list = ListDescriptor(key: "list", itemType: "Thing")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    /// A source whose page for each token the test writes; tokens are numbers, the first page is 0.
    final class WalkSource: PageSource, Sendable {
        struct Flaky: TransientError, CustomStringConvertible {
            var isTransient: Bool
            var description: String { isTransient ? "flaky" : "broken" }
        }

        private let pages: @Sendable (Int) -> (ids: [Int], next: Int?)
        private let failures = Mutex<[Int: [Flaky]]>([:])
        private let asked = Mutex<[Int]>([])

        init(_ pages: @escaping @Sendable (Int) -> (ids: [Int], next: Int?)) {
            self.pages = pages
        }

        /// The page numbers asked for, in order.
        var requests: [Int] { asked.withLock { $0 } }

        /// Makes the next requests for page `number` fail with these errors, in order.
        func fail(page number: Int, with errors: [Flaky]) { failures.withLock { $0[number] = errors } }

        func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
            let number = request.token?.intValue ?? 0
            asked.withLock { $0.append(number) }
            let failure = failures.withLock { failures -> Flaky? in
                guard var queued = failures[number], !queued.isEmpty else { return nil }
                let first = queued.removeFirst()
                failures[number] = queued
                return first
            }
            if let failure { throw failure }
            let (ids, next) = pages(number)
            let items = ids.map { RawItem(key: .integer($0), json: Data(#"{"id":\#($0)}"#.utf8)) }
            return .page(Page(items: items, token: request.token, nextToken: next.map { PageToken($0) }))
        }
    }

    private func sync(_ source: WalkSource) -> ListSync<WalkSource> {
        ListSync(storage: store, source: source, list: list)
    }

    private var pageCount: Int { (try? store.list("list")?.pageCount) ?? 0 }

    @Test func aCycleOfThreePagesStopsAndARerunAddsNothing() async throws {
        let source = WalkSource { number in (ids: [number * 2 + 1, number * 2 + 2], next: (number + 1) % 3) }
        // The first page has no token, so the loop is seen when page "0" (the first page again) leads to "1".
        await #expect(throws: CacheError.tokenDidNotAdvance(list: "list", token: "1")) {
            try await sync(source).run(limits: .init())
        }
        #expect(pageCount == 3)
        for _ in 0..<3 {
            await #expect(throws: CacheError.tokenDidNotAdvance(list: "list", token: "1")) {
                try await sync(source).run(limits: .init())
            }
            #expect(pageCount == 3)
        }
    }

    @Test func aServerThatIgnoresThePageParameterStopsAtTheSecondPage() async throws {
        let source = WalkSource { number in (ids: [1, 2, 3], next: number + 1) }
        await #expect(throws: CacheError.pageRepeated(list: "list", index: 1)) {
            try await sync(source).run(limits: .init())
        }
        #expect(pageCount == 1)
        await #expect(throws: CacheError.self) { try await sync(source).run(limits: .init()) }
        #expect(pageCount == 1)
        #expect(source.requests == [0, 1, 1, 2])
    }

    @Test func pagesThatBringNothingNewStopTheWalkUnsaved() async throws {
        // Fresh tokens forever, the items alternating between two pages' worth.
        let source = WalkSource { number in (ids: number % 2 == 0 ? [1, 2] : [3, 4], next: number + 1) }
        await #expect(throws: CacheError.listStalled(list: "list", pages: 3)) {
            try await sync(source).run(limits: .init())
        }
        #expect(pageCount == 2)
        await #expect(throws: CacheError.listStalled(list: "list", pages: 3)) {
            try await sync(source).run(limits: .init())
        }
        #expect(pageCount == 2)
        let error = CacheError.listStalled(list: "list", pages: 3)
        #expect(error.description.contains("brought no item not already listed"))
    }

    @Test func pagesWithNothingNewAreSavedOnceALaterPageBringsSomething() async throws {
        let pages: [[Int]] = [[1, 2], [3, 4], [1, 2], [3, 4], [5, 6]]
        let source = WalkSource { number in (ids: pages[number], next: number + 1 < pages.count ? number + 1 : nil) }
        let progress = try await sync(source).run(limits: .init())
        #expect(progress.pagesFetched == 5)
        #expect(progress.endReached)
        #expect(try Fixtures.ids(#require(try store.cachedList("list")).items) == [1, 2, 3, 4, 5, 6])
    }

    @Test func maxItemsBoundsARunAndTheNextRunContinues() async throws {
        let source = WalkSource { number in
            (ids: [number * 10 + 1, number * 10 + 2], next: number < 9 ? number + 1 : nil)
        }
        let first = try await sync(source).run(limits: .init(maxItems: 5))
        #expect(first.itemsFetched == 6)
        #expect(first.pagesFetched == 3)
        let rest = try await sync(source).run(limits: .init())
        #expect(rest.pagesFetched == 7)
        #expect(rest.endReached)
        #expect(source.requests == Array(0...9))
    }

    @Test func transientFailuresAreRetriedWithinTheBudgetAndCounted() async throws {
        let source = WalkSource { number in (ids: [number + 1], next: number < 3 ? number + 1 : nil) }
        source.fail(page: 2, with: Array(repeating: .init(isTransient: true), count: 4))
        let budget = RetryBudget(duration: .seconds(3600), baseDelay: .milliseconds(1), maxDelay: .milliseconds(5))
        let progress = try await sync(source).run(limits: .init(), retryBudget: budget)
        #expect(progress.pageRetries == 4)
        #expect(progress.endReached)
        #expect(try Fixtures.ids(#require(try store.cachedList("list")).items) == [1, 2, 3, 4])
    }

    @Test func aPermanentFailureEndsTheRunAtOnceAndTheFailedPageIsNotSaved() async throws {
        let source = WalkSource { number in (ids: [number + 1], next: number < 3 ? number + 1 : nil) }
        source.fail(page: 2, with: [.init(isTransient: false)])
        let budget = RetryBudget(duration: .seconds(60), baseDelay: .milliseconds(1))
        await #expect(throws: WalkSource.Flaky.self) {
            try await sync(source).run(limits: .init(), retryBudget: budget)
        }
        #expect(pageCount == 2)
        #expect(source.requests == [0, 1, 2])
    }

    @Test func aSpentBudgetGivesUpWithTheLastError() async throws {
        let source = WalkSource { number in (ids: [number + 1], next: nil) }
        source.fail(page: 0, with: Array(repeating: .init(isTransient: true), count: 1000))
        let budget = RetryBudget(duration: .milliseconds(50), baseDelay: .milliseconds(5), maxDelay: .milliseconds(10))
        await #expect(throws: WalkSource.Flaky.self) {
            try await sync(source).run(limits: .init(), retryBudget: budget)
        }
        #expect(pageCount == 0)
        #expect(source.requests.count > 1)
    }
}
