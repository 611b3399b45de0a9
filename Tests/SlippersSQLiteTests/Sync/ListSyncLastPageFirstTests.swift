import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Synchronization
import Testing

@testable import SlippersSQLite

/// A page-number list read several pages at once, whose last page is read before the pages
/// between it and the first, so that a list moved under the walk shows in its ids.
@Suite struct ListSyncLastPageFirstTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let posts = ListDescriptor(key: "posts", itemType: "Post")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    private func storedIDs() throws -> Set<Int> {
        Set(try Fixtures.ids(#require(try store.cachedList("posts")).items))
    }

    @Test(arguments: [3, 8, 15] as [Int])
    func aRemovalThatLeavesTheTotalAndTheIDsAsTheyWereIsFoundOut(changeAt: Int) async throws {
        let source = ChangingOnceSource(ids: Array(1...200), pageSize: 10, changeAt: changeAt) { ids in
            ids.removeFirst()
            ids.append(201)
        }
        var sync = ListSync(storage: store, source: source, list: posts)
        sync.concurrency = AdaptiveConcurrency(maximum: 6)
        let progress = try await sync.run(limits: .init())
        // Pages 2 to changeAt - 1 were answered before the removal and the pages after it since: an item hid
        // between them, and the last page, read first, lists an id that the page above it lists too.
        #expect(source.pagesAskedFor.prefix(2) == [1, 20])
        #expect(progress.listMoved)
        // The item that hid, and the one added at the end since the last page was read.
        #expect(progress.itemsRecovered == 2)
        #expect(try storedIDs().isSuperset(of: 2...200))
    }

    @Test func aListThatHoldsStillCostsNoRequestMore() async throws {
        let source = ChangingOnceSource(ids: Array(1...200), pageSize: 10, changeAt: .max) { _ in }
        var sync = ListSync(storage: store, source: source, list: posts)
        sync.concurrency = AdaptiveConcurrency(maximum: 6)
        let progress = try await sync.run(limits: .init())
        #expect(!progress.listMoved)
        #expect(source.pagesAskedFor.sorted() == Array(1...20))
        #expect(source.pagesAskedFor.prefix(2) == [1, 20])
        #expect(try storedIDs() == Set(1...200))
    }
}

/// A page-number list that changes once, when its page `changeAt` is asked for: the pages before it
/// are answered before the change, the pages after it once it is made. The last page, asked for
/// before any page between it and the first, is answered at once.
private final class ChangingOnceSource: AddressablePageSource, Sendable {
    let base: ScriptedSource
    let changeAt: Int
    private let change: @Sendable (inout [Int]) -> Void
    private let state: Mutex<(ids: [Int], answered: Set<Int>, asked: Set<Int>, changed: Bool)>

    init(ids: [Int], pageSize: Int, changeAt: Int, change: @escaping @Sendable (inout [Int]) -> Void) {
        self.base = ScriptedSource(ids: ids, pageSize: pageSize)
        self.changeAt = changeAt
        self.change = change
        self.state = Mutex((ids, [], [], false))
    }

    var pagesAskedFor: [Int] { base.pagesAskedFor }

    func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        let number = request.token?.intValue ?? 1
        let mustWait = state.withLock { state in
            defer { state.asked.insert(number) }
            return number > changeAt && !state.changed && !state.asked.isDisjoint(with: 2...changeAt)
        }
        if number == changeAt {
            while state.withLock({ !$0.answered.isSuperset(of: 2..<changeAt) }) {
                try await Task.sleep(for: .milliseconds(1))
            }
            state.withLock { state in
                change(&state.ids)
                state.changed = true
                base.setIDs(state.ids)
            }
        } else if mustWait {
            while state.withLock({ !$0.changed }) { try await Task.sleep(for: .milliseconds(1)) }
        }
        let result = try await base.fetch(request)
        state.withLock { _ = $0.answered.insert(number) }
        return result
    }

    func token(forPageAt index: Int) -> PageToken? { PageToken(index + 1) }

    func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        (total + base.pageSize - 1) / base.pageSize
    }
}
