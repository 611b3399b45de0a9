import Foundation
import LocalAPI
import Observation
import SlippersKit
import SlippersTestSupport
import Testing

/// Two signed-in people on one cache in one process: each list shows its own account's rows,
/// online and offline, and a sign-out empties only the signed-out list.
@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListAccountsTests {
    /// An item of the per-token list.
    struct Message: Codable, Sendable, Hashable, Identifiable, CacheIdentifiable {
        var id: ID<Message>
        var owner: String
        var title: String
    }

    func list(_ fixture: Fixture, url: URL, token: String, account: Account? = nil) -> PagedList<Message> {
        PagedList<Message>(
            url: url, cache: fixture.store,
            configuration: HTTPListConfiguration(
                client: fixture.client, headers: ["Authorization": "Bearer \(token)"]),
            account: account)
    }

    @Test func twoAccountsListOnlyTheirOwnRowsOnlineAndOffline() async throws {
        let fixture = try await Fixture()
        let messages = AccountList(tokens: ["a1": "alice", "a2": "alice", "b1": "bob"], count: 25)
        messages.install(on: fixture.server)
        let url = fixture.server.url(path: "/mine")
        let alice = list(fixture, url: url, token: "a1")
        let bob = list(fixture, url: url, token: "b1")
        await alice.load()
        await bob.load()
        await waitUntil { alice.items.count == 10 && bob.items.count == 10 }
        #expect(Set(alice.items.map(\.owner)) == ["alice"])
        #expect(Set(bob.items.map(\.owner)) == ["bob"])
        // Equal ids, two rows: an item of one account is never another's.
        #expect(alice.items.map(\.id) == bob.items.map(\.id))
        await fixture.server.stop()

        // Offline, cache first: each new list shows its own account's pages, and a token never
        // seen shows nothing of theirs.
        let aliceAgain = list(fixture, url: url, token: "a1")
        let bobAgain = list(fixture, url: url, token: "b1")
        let stranger = list(fixture, url: url, token: "c1")
        await aliceAgain.load()
        await bobAgain.load()
        await stranger.load()
        await waitUntil { !aliceAgain.isRefreshing && !bobAgain.isRefreshing && !stranger.isRefreshing }
        #expect(Set(aliceAgain.items.map(\.owner)) == ["alice"])
        #expect(Set(bobAgain.items.map(\.owner)) == ["bob"])
        #expect(aliceAgain.items.count == 10 && bobAgain.items.count == 10)
        #expect(stranger.items.isEmpty)
    }

    @Test func aDeclaredAccountSurvivesTokenRotationAndSignOutEmptiesOnlyItsList() async throws {
        let fixture = try await Fixture()
        let messages = AccountList(tokens: ["a1": "alice", "a2": "alice", "b1": "bob"], count: 25)
        messages.install(on: fixture.server)
        let url = fixture.server.url(path: "/mine")
        let alice = list(fixture, url: url, token: "a1", account: Account("user-alice"))
        let bob = list(fixture, url: url, token: "b1", account: Account("user-bob"))
        await alice.load()
        await bob.load()
        await waitUntil { alice.items.count == 10 && bob.items.count == 10 }
        await fixture.server.stop()

        // The token rotated: the declared account keeps its cache, offline.
        let rotated = list(fixture, url: url, token: "a2", account: Account("user-alice"))
        await rotated.load()
        await waitUntil { !rotated.isRefreshing }
        #expect(rotated.items.count == 10 && Set(rotated.items.map(\.owner)) == ["alice"])

        // Sign-out: alice's lists empty at once (they follow the cache), bob's keep their rows.
        let removal = try fixture.store.removeAccount(Account("user-alice"))
        #expect(removal.items == 10 && removal.lists == 1)
        await waitUntil { alice.items.isEmpty && rotated.items.isEmpty }
        #expect(bob.items.count == 10)
        #expect(try fixture.store.accounts() == [Account("user-bob")])
    }
}
