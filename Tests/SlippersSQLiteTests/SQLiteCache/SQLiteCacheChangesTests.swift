import Foundation
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Synchronization
import Testing

/// `changes()` in a real file: the cache's own writes at once, another connection's within the
/// interval, for every follower of the file, one watch shared in the process.
@Suite(.timeLimit(.minutes(1))) struct SQLiteCacheChangesTests {
    /// Counts what a sequence yields, until cancelled.
    final class Counter: Sendable {
        private let count = Mutex(0)
        private let task = Mutex<Task<Void, Never>?>(nil)

        init(_ changes: AsyncStream<Void>) {
            let started = Task { [self] in
                for await _ in changes { count.withLock { $0 += 1 } }
            }
            task.withLock { $0 = started }
        }

        var value: Int { count.withLock { $0 } }

        func cancel() { task.withLock { $0?.cancel() } }
    }

    /// Waits until `condition` holds, for at most 20 s.
    private func waitFor(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func everyFollowerSeesAnotherConnectionsCommitAndOneLeavingStopsNoOther() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        let first = Counter(store.changes(pollingEvery: .milliseconds(10)))
        let second = Counter(store.changes(pollingEvery: .milliseconds(10)))
        let other = try SQLiteCache(path: directory.path())

        try other.savePage(Fixtures.page([2], next: nil), at: 0, in: Fixtures.posts)
        try await waitFor { first.value > 0 && second.value > 0 }
        #expect(first.value > 0)
        #expect(second.value > 0)

        first.cancel()
        let before = second.value
        try other.savePage(Fixtures.page([3], next: nil), at: 0, in: Fixtures.posts)
        try await waitFor { second.value > before }
        #expect(second.value > before)
        second.cancel()
    }

    @Test func aWriteThroughTheStoreIsSeenWithoutWaitingForThePoll() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        let follower = Counter(store.changes(pollingEvery: .seconds(3600)))
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        try await waitFor { follower.value > 0 }
        #expect(follower.value > 0)
        follower.cancel()
    }
}
