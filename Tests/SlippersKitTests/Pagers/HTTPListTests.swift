import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// Pagers built from a URL and a style: their key, their stored style, the first page reused.
@Suite(.timeLimit(.minutes(2))) struct HTTPListTests {
    @Test func theKeyCarriesTheStyleSoAMisconfiguredPagerHasACacheOfItsOwn() async throws {
        let fixture = try await Fixture()
        let right = HTTPPageSource(
            client: fixture.client, url: fixture.server.url(.page),
            style: .pageNumber(pageSize: 10, itemsKeyPath: "results"))
        var wrong = right
        wrong.style.itemsKeyPath = "data"
        #expect(right.styledListKey != wrong.styledListKey)
        #expect(right.styledListKey.hasPrefix(right.listKey + " [style "))
        #expect(try right.list().style == right.style.storedText())

        let good = try Pager<FixtureItem>(http: right, cache: fixture.store)
        await good.start()
        #expect(await good.state.items.count == 10)
        let bad = try Pager<FixtureItem>(http: wrong, cache: fixture.store)
        await bad.start()
        #expect(await bad.state.items.isEmpty)
        #expect(await bad.state.refresh.error != nil)
        #expect(good.list.key != bad.list.key)
        // The correct pager's cache is untouched by the misconfigured one.
        #expect(try fixture.store.list(good.list.key)?.itemCount == 10)
        await fixture.server.stop()
    }

    @Test func aListSyncedUnderItsPlainKeyIsFoundByAPagerOfTheSameStyle() async throws {
        let fixture = try await Fixture()
        let url = fixture.server.url(.page)
        let plan = try await SyncPlan.make(storage: fixture.store, client: fixture.client, url: url)
        #expect(plan.list.key == plan.source.base.listKey)
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run()
        fixture.server.resetRequests()

        let pager = try Pager<FixtureItem>(
            http: plan.source.base, cache: fixture.store, configuration: PagerConfiguration(policy: .cacheOnly))
        #expect(pager.list.key == plan.list.key)
        await pager.start()
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(fixture.server.requestCount == 0)
        await fixture.server.stop()
    }

    @Test func aDetectingPagerUsesTheDetectedFirstPageInsteadOfFetchingItAgain() async throws {
        let fixture = try await Fixture()
        let pager = try await Pager<FixtureItem>.detecting(
            url: fixture.server.url(.page), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await pager.start()
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        #expect(fixture.server.requestCount == 1)
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.items.count == 20)
        #expect(fixture.firstPageRequests() == 1)

        // Stored with its style: a pager made later for the URL finds it with no request.
        fixture.server.resetRequests()
        let again = try await Pager<FixtureItem>.detecting(
            url: fixture.server.url(.page), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client, pager: PagerConfiguration(policy: .cacheOnly)))
        #expect(again.list == pager.list)
        #expect(fixture.server.requestCount == 0)
        await fixture.server.stop()
    }

    @Test func anAccountsListIsRebuiltOfflineFromItsOwnStoredStyle() async throws {
        let fixture = try await Fixture()
        let url = fixture.server.url(.page)
        let online = try await Pager<FixtureItem>.detecting(
            url: url, cache: fixture.store,
            configuration: HTTPListConfiguration(
                client: fixture.client, pager: PagerConfiguration(account: Account("user 7")))
        )
        await online.start()
        #expect(online.list.key.hasSuffix(" [account: user 7]"))
        await fixture.server.stop()

        let offline = try await Pager<FixtureItem>.detecting(
            url: url, cache: fixture.store,
            configuration: HTTPListConfiguration(
                client: fixture.client, pager: PagerConfiguration(account: Account("user 7")))
        )
        #expect(offline.list == online.list)
        await offline.start()
        #expect(await offline.state.items.map { $0.id.intValue ?? -1 } == Array(1...10))
        // Another account has nothing cached: it would have to ask the network.
        await #expect(throws: (any Error).self) {
            try await Pager<FixtureItem>.detecting(
                url: url, cache: fixture.store,
                configuration: HTTPListConfiguration(
                    client: fixture.client, pager: PagerConfiguration(account: Account("user 8"))))
        }
    }

    @Test func theStoredStyleIsStableText() throws {
        let style = PaginationStyle.cursor(pageSize: 50)
        #expect(try style.storedText() == style.storedText())
        #expect(PaginationStyle(storedText: try style.storedText()) == style)
        #expect(PaginationStyle(storedText: "not json") == nil)
        #expect(PaginationStyle(storedText: nil) == nil)
    }
}
