import Slippers
import Testing

/// Groups within groups, and members that refresh both ways.
@Suite struct MetaRefresherNestingTests {
    @Test func aGroupInAGroupIsRefreshedBothWays() async throws {
        let sync = Counter()
        let async = Counter()
        let inner = MetaRefresher()
        let syncMember = Refresher { sync.increment() }
        let asyncMember = AsyncRefresher { async.increment() }
        inner.add(syncMember)
        inner.add(asyncMember)
        let outer = MetaRefresher()
        outer.add(inner)
        #expect(outer.count == 1)

        try await outer.refresh()
        #expect(sync.count == 1 && async.count == 1)

        let synchronous: any Refreshable = outer
        try synchronous.refresh()
        #expect(sync.count == 2)
    }

    @Test func anAsynchronousMembersFailureReachesTheAsynchronousRefresh() async throws {
        struct Failed: Error {}
        let counter = Counter()
        let failing = AsyncRefresher { throw Failed() }
        let working = AsyncRefresher { counter.increment() }
        let inner = MetaRefresher()
        inner.add(failing)
        inner.add(working)
        let outer = MetaRefresher()
        outer.add(inner)
        await #expect(throws: MetaRefresher.Failure.self) { try await outer.refresh() }
        #expect(counter.count == 1)
    }
}
