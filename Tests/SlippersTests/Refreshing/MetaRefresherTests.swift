import Slippers
import Testing

/// A member that holds its group strongly, as a view model might.
private final class Member: Refreshable {
    let counter = Counter()
    let group: MetaRefresher
    init(group: MetaRefresher) { self.group = group }
    func refresh() { counter.increment() }
}

@Suite struct MetaRefresherTests {
    @Test func refreshesEveryMember() throws {
        let group = MetaRefresher()
        let a = Counter()
        let b = Counter()
        let refresherA = Refresher { a.increment() }
        let refresherB = Refresher { b.increment() }
        group.add(refresherA)
        group.add(refresherB)
        try group.refresh()
        #expect(a.count == 1 && b.count == 1)
        #expect(group.count == 2)
    }

    @Test func addingTwiceKeepsOneMemberAndRemovingStopsRefreshes() throws {
        let group = MetaRefresher()
        let counter = Counter()
        let refresher = Refresher { counter.increment() }
        group.add(refresher)
        group.add(refresher)
        try group.refresh()
        #expect(counter.count == 1)
        group.remove(refresher)
        try group.refresh()
        #expect(counter.count == 1)
        #expect(group.count == 0)
    }

    @Test func asyncRefreshReachesSyncAndAsyncMembers() async throws {
        let group = MetaRefresher()
        let sync = Counter()
        let async = Counter()
        let syncMember = Refresher { sync.increment() }
        let asyncMember = AsyncRefresher { async.increment() }
        group.add(syncMember)
        group.add(asyncMember)
        try await group.refresh()
        #expect(sync.count == 1 && async.count == 1)
    }

    @Test func aFailingMemberDoesNotStopTheOthersAndItsErrorIsReported() async {
        let group = MetaRefresher()
        let counter = Counter()
        let failing = AsyncRefresher { throw Boom(name: "offline") }
        let working = Refresher { counter.increment() }
        group.add(failing)
        group.add(working)
        await #expect {
            try await group.refresh()
        } throws: { error in
            guard let failure = error as? MetaRefresher.Failure else { return false }
            return failure.errors.count == 1 && (failure.errors.first as? Boom) == Boom(name: "offline")
                && failure.description.contains("1 of the refreshes failed")
        }
        #expect(counter.count == 1)
    }

    @Test func membersThatHoldTheGroupAreNotKeptAliveByIt() throws {
        let group = MetaRefresher()
        weak var weakMember: Member?
        do {
            let member = Member(group: group)
            weakMember = member
            group.add(member)
            try group.refresh()
            #expect(member.counter.count == 1)
        }
        #expect(weakMember == nil)
        #expect(group.count == 0)
        try group.refresh()
    }

    @Test func theSynchronousRefreshAlsoStartsTheAsynchronousMembers() async throws {
        let refreshed = AsyncStream.makeStream(of: Void.self)
        let member = AsyncRefresher { refreshed.continuation.yield() }
        let group = MetaRefresher()
        group.add(member)
        let synchronous: any Refreshable = group
        try synchronous.refresh()
        var iterator = refreshed.stream.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }
}
