import Slippers
import Synchronization
import Testing

/// Counts calls across concurrency domains.
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

struct Boom: Error, Equatable { let name: String }

@Suite struct RefresherTests {
    @Test func runsItsClosureOnEveryRefresh() throws {
        let counter = Counter()
        let refresher = Refresher { counter.increment() }
        try refresher.refresh()
        try refresher.refresh()
        #expect(counter.count == 2)
    }

    @Test func passesOnTheClosuresError() {
        let refresher = Refresher { throw Boom(name: "db") }
        #expect(throws: Boom(name: "db")) { try refresher.refresh() }
    }

    @Test func asyncRefresherAwaitsItsClosure() async throws {
        let counter = Counter()
        let refresher = AsyncRefresher {
            await Task.yield()
            counter.increment()
        }
        try await refresher.refresh()
        #expect(counter.count == 1)
    }
}
