import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// The per-page freshness model against the fixture API on 127.0.0.1: the request log proves the counts.
@Suite struct FreshnessHTTPTests {
    typealias HTTPPager = Pager<FixtureItem>

    let directory: TemporaryDirectory
    let store: SQLiteCache
    let server: FixtureServer
    let source: HTTPPageSource

    init() async throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
        server = FixtureServer(configuration: .init(itemCount: 100, pageSize: 10))
        try await server.start()
        let configuration = try #require(ServerConfiguration(baseURL: server.baseURL))
        let client = APIClient(configuration: configuration, options: APIClient.Options(retryPolicy: .none))
        source = HTTPPageSource(
            client: client, url: server.url(.page),
            style: .pageNumber(firstPage: 1, pageSize: 10, itemsKeyPath: "results"))
    }

    private var list: ListDescriptor {
        ListDescriptor(key: source.listKey, itemType: "FixtureItem")
    }

    private func pager(_ policy: CachePolicy = .cacheThenNetwork, clock: @escaping @Sendable () -> Date = { Date() })
        -> HTTPPager
    {
        HTTPPager(
            cache: store, source: source,
            list: ListDescriptor(key: source.listKey, of: FixtureItem.self),
            configuration: PagerConfiguration(policy: policy, clock: clock))
    }

    /// Caches the first `pages` pages as an earlier launch would have, then forgets its requests.
    private func seed(pages: Int? = nil) async throws {
        try await ListSync(storage: store, source: source, list: list).run(maxPages: pages)
        server.resetRequests()
    }

    private func scroll(_ pager: HTTPPager, toPages count: Int) async {
        var previous = -1
        while await pager.state.pages.count < count, await pager.state.pages.count != previous {
            previous = await pager.state.pages.count
            await pager.loadNextPageIfNeeded()
        }
    }

    @Test(arguments: FixtureServer.Validators.allCases)
    func aRelaunchOnAnUnchangedTenPageListCostsOneRequest(validators: FixtureServer.Validators) async throws {
        server.setValidators(validators)
        try await seed()
        let pager = pager()
        await pager.start()
        await scroll(pager, toPages: 10)
        let state = await pager.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...100))
        #expect(state.endReached)
        #expect(server.requestCount == 1, "\(validators)")
        #expect(try store.list(source.listKey)?.generation == 1)
        if validators != .none { #expect(server.requests.first?.isConditional == true) }
    }

    @Test(arguments: FixtureServer.Validators.allCases)
    func aRelaunchThatScrollsFiveCachedPagesAndFiveNewOnesCostsSixRequests(
        validators: FixtureServer.Validators
    ) async throws {
        server.setValidators(validators)
        try await seed(pages: 5)
        let pager = pager()
        await pager.start()
        await scroll(pager, toPages: 10)
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...100))
        #expect(server.requestCount == 6, "\(validators)")
        #expect(server.requests.map { $0.query["page"] } == ["1", "6", "7", "8", "9", "10"])
    }

    @Test(arguments: [FixtureServer.Validators.etag, .lastModified, .none])
    func aChangeDeepInTheListShowsWhenItsPageIsInTheWindowAfterARefresh(
        validators: FixtureServer.Validators
    ) async throws {
        server.setValidators(validators)
        let pager = pager()
        await pager.start()
        await scroll(pager, toPages: 4)
        server.update(id: 25, title: "edited deep")
        server.resetRequests()
        try await pager.refresh()
        #expect(await pager.state.items.first { $0.id.rawValue == 25 }?.title != "edited deep")
        await pager.loadNextPageIfNeeded()
        await pager.loadNextPageIfNeeded()
        let state = await pager.state
        #expect(state.items.first { $0.id.rawValue == 25 }?.title == "edited deep")
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...40))
        // Page 1 at once, then pages 2 and 3 as they came up; page 4 waits for the window.
        #expect(server.requests.map { $0.query["page"] } == ["1", "2", "3"])
        if validators != .none { #expect(server.requests.allSatisfy { $0.isConditional }) }
        #expect(state.pageProvenances == [.network, .network, .network, .cache])
    }

    @Test func anInsertAtTheTopLosesNoItemAndDuplicatesNoneWhileScrolling() async throws {
        let pager = pager()
        await pager.start()
        await scroll(pager, toPages: 3)
        server.insertAtTop(count: 3)
        try await pager.refresh()
        var shown = await pager.state.items.map { $0.id.intValue ?? -1 }
        #expect(shown == [103, 102, 101] + Array(1...30))
        while await !pager.state.endReached {
            await pager.loadNextPageIfNeeded()
            shown = await pager.state.items.map { $0.id.intValue ?? -1 }
            #expect(Set(shown).count == shown.count)
            #expect(Array(shown.prefix(33)) == [103, 102, 101] + Array(1...30))
        }
        #expect(shown == [103, 102, 101] + Array(1...100))
    }

    @Test func aDeletedItemDisappearsWhenItsPageIsRevalidated() async throws {
        let pager = pager()
        await pager.start()
        await scroll(pager, toPages: 2)
        server.remove(id: 15)
        try await pager.refresh()
        await pager.loadNextPageIfNeeded()
        let ids = await pager.state.items.map { $0.id.intValue ?? -1 }
        #expect(!ids.contains(15))
        #expect(ids == Array(1...14) + Array(16...21))
    }

    @Test func maxAgeServesTheCacheWithoutARequestUntilItRunsOut() async throws {
        server.setResponseHeaders(["Cache-Control": "max-age=60"])
        try await seed(pages: 3)
        let young = pager(clock: { Date().addingTimeInterval(30) })
        await young.start()
        await scroll(young, toPages: 3)
        #expect(server.requestCount == 0)
        #expect(await young.state.pageProvenances == [.fresh, .fresh, .fresh])

        let old = pager(clock: { Date().addingTimeInterval(90) })
        await old.start()
        await scroll(old, toPages: 3)
        #expect(server.requestCount == 3)
        #expect(server.requests.allSatisfy { $0.isConditional })
    }

    @Test func expiresSetsTheLifetimeToo() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let now = Date()
        server.setResponseHeaders([
            "Date": formatter.string(from: now), "Expires": formatter.string(from: now.addingTimeInterval(600)),
        ])
        try await seed(pages: 1)
        let info = try #require(try store.pageInfo(at: 0, in: source.listKey))
        #expect(abs((info.lifetime ?? 0) - 600) < 2)
        await pager().start()
        #expect(server.requestCount == 0)
    }

    @Test func offlineTheWindowGrowsThroughTheCacheWithoutARequestPerRow() async throws {
        try await seed(pages: 5)
        server.insertAtTop(count: 1)
        let pager = pager()
        await pager.start()
        await server.stop()
        server.resetRequests()
        for row in 0..<250 { await pager.loadNextPageIfNeeded(displayedRow: row) }
        let state = await pager.state
        #expect(state.pages.count == 5)
        #expect(state.items.map { $0.id.intValue ?? -1 } == [101] + Array(1...50))
        #expect((state.append.error as? NetworkError)?.kind == .transport(.cannotConnect))
        try await server.start()
        #expect(server.requestCount == 0)
        await pager.retry()
        #expect(server.requestCount == 1)
        #expect(await pager.state.append.error == nil)
    }

    @Test(arguments: FixtureServer.Validators.allCases)
    func revalidatingTenUnchangedPagesRewritesNoneAndAChangedListOnlyItsChanges(validators: FixtureServer.Validators)
        async throws
    {
        server.setValidators(validators)
        try await seed()
        let sync = ListSync(storage: store, source: source, list: list)
        var found = try await sync.revalidate()
        #expect(found.unchanged == 10)
        #expect(found.changed + found.new + found.removed == 0)
        #expect(found.endReached)
        #expect(server.requestCount == 10)

        // An edit on page 6, and the last page's items removed: page 9 is now the last.
        server.update(id: 55, title: "edited")
        for id in 91...100 { server.remove(id: id) }
        found = try await sync.revalidate()
        #expect(found.unchanged == 7)
        #expect(found.changed == 2)
        #expect(found.new == 0)
        #expect(found.removed == 1)
        #expect(try store.list(source.listKey)?.pageCount == 9)
    }

    // MARK: no-store and Vary

    private func source(headers: [String: String]) throws -> HTTPPageSource {
        var other = source
        other.headers = headers
        return other
    }

    @Test func noStorePagesAreHeldInMemoryAndNeverReachTheFile() async throws {
        server.setResponseHeaders(["Cache-Control": "no-store"])
        let pager = pager()
        await pager.start()
        await scroll(pager, toPages: 3)
        #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...30))
        #expect(await pager.state.pageProvenances == [.network, .network, .network])
        #expect(try store.list(source.listKey) == nil)
        #expect(try store.stats().items == 0)
        await self.pager().start()
        #expect(server.requestCount == 4)
    }

    @Test func anAppThatOptsOutKeepsNoStorePages() async throws {
        server.setResponseHeaders(["Cache-Control": "no-store"])
        let pager = HTTPPager(
            cache: store, source: source,
            list: ListDescriptor(key: source.listKey, of: FixtureItem.self),
            configuration: PagerConfiguration(keepsNoStorePages: true))
        await pager.start()
        await scroll(pager, toPages: 2)
        #expect(try store.list(source.listKey)?.pageCount == 2)
    }

    @Test func aPageThatVariesOnAHeaderIsServedOnlyToTheSameValue() async throws {
        server.setResponseHeaders(["Vary": "Accept-Language"])
        let french = try source(headers: ["Accept-Language": "fr"])
        try await ListSync(storage: store, source: french, list: list).run(maxPages: 2)
        server.resetRequests()

        let again = HTTPPager(
            cache: store, source: french,
            list: ListDescriptor(key: source.listKey, of: FixtureItem.self),
            configuration: PagerConfiguration(policy: .cacheFirst(maxAge: 3600)))
        await again.start()
        await scroll(again, toPages: 2)
        #expect(server.requestCount == 0)

        let german = try source(headers: ["Accept-Language": "de"])
        let other = Pager<FixtureItem>(
            cache: store, source: german,
            list: ListDescriptor(key: source.listKey, of: FixtureItem.self),
            configuration: PagerConfiguration(policy: .cacheFirst(maxAge: 3600)))
        let recorder = Recorder(await other.states())
        await other.start()
        // The French page was never shown, and it was not used to revalidate: a full request.
        #expect(await recorder.values.allSatisfy { $0.provenance != .cache || $0.items.isEmpty })
        #expect(server.requestCount == 1)
        #expect(server.requests.first?.isConditional == false)
        #expect(server.requests.first?.headers["Accept-Language"] == "de")
        #expect(await other.state.items.count == 10)
    }

    @Test func aDeclaredAccountKeepsItsCacheAcrossTokensAndApartFromOtherAccounts() async throws {
        server.setResponseHeaders(["Vary": "Authorization"])
        func pager(token: String, account: String) throws -> HTTPPager {
            HTTPPager(
                cache: store, source: try source(headers: ["Authorization": "Bearer \(token)"]),
                list: ListDescriptor(key: source.listKey, of: FixtureItem.self),
                configuration: PagerConfiguration(policy: .cacheFirst(maxAge: 3600), account: Account(account)))
        }
        let alice = try pager(token: "t1", account: "alice")
        await alice.start()
        await scroll(alice, toPages: 2)
        server.resetRequests()

        // The token rotated: the same declared account keeps its cache.
        let rotated = try pager(token: "t2", account: "alice")
        await rotated.start()
        await scroll(rotated, toPages: 2)
        #expect(await rotated.state.items.count == 20)
        #expect(server.requestCount == 0)

        let bob = try pager(token: "t3", account: "bob")
        await server.stop()
        await bob.start()
        #expect(await bob.state.items.isEmpty)
        #expect(bob.list.key != alice.list.key)
        #expect(bob.list.itemType != alice.list.itemType)
    }

    // MARK: Model drift

    /// The app's new model: it refuses a title its older version accepted.
    struct Strict: Decodable, Sendable {
        let id: ID<Strict>
        let title: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(ID<Strict>.self, forKey: .id)
            title = try container.decode(String.self, forKey: .title)
            guard title != "old shape" else {
                throw DecodingError.dataCorruptedError(forKey: .title, in: container, debugDescription: "old shape")
            }
        }

        enum CodingKeys: String, CodingKey { case id, title }
    }

    @Test func aCachedPageThatNoLongerDecodesIsSkippedOfflineAndRefetchedOnline() async throws {
        server.update(id: 15, title: "old shape")
        try await seed(pages: 3)
        server.update(id: 15, title: "new shape")
        func pager(_ policy: CachePolicy) -> Pager<Strict> {
            Pager(
                cache: store, source: source,
                list: ListDescriptor(key: source.listKey, itemType: "FixtureItem"),
                configuration: PagerConfiguration(policy: policy))
        }

        let offline = pager(.cacheOnly)
        await offline.start()
        await offline.loadNextPageIfNeeded()
        await offline.loadNextPageIfNeeded()
        var state = await offline.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...10) + Array(21...30))
        #expect(state.undecodablePages == [1])

        let online = pager(.cacheFirst(maxAge: 3600))
        await online.start()
        await online.loadNextPageIfNeeded()
        await online.loadNextPageIfNeeded()
        state = await online.state
        #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...20))
        #expect(state.items.first { $0.id.rawValue == 15 }?.title == "new shape")
        #expect(state.undecodablePages.isEmpty)
        #expect(server.requests.map { $0.query["page"] } == ["2"])
        #expect(server.requests.first?.isConditional == false)
    }
}
