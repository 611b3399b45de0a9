import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// A cache file written by the release before `ListKey`: its lists are found by the same URLs and styles.
///
/// `Fixtures/cache-written-by-0.4.db` holds a list synced as `slippers sync` files it (the plain
/// URL key), a pager's list (the styled key) and the same list kept for the partition `user 7` (the account `user 7` since accounts exist),
/// 25 items each, fetched from a fixture server on a port that is closed now.
@Suite struct LegacyCacheFileTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let base: String

    init() throws {
        directory = try TemporaryDirectory()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/cache-written-by-0.4.db")
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: directory.path()))
        store = try SQLiteCache(path: directory.path())
        let keys = try store.lists().map { ListKey(parsing: $0.key) }
        base = try #require(keys.first { $0.list.hasSuffix("/offset") }).list.replacingOccurrences(
            of: "/offset", with: "")
    }

    private let style = PaginationStyle.pageNumber(pageSize: 10, itemsKeyPath: "results")

    @Test func everyKeyParsesIntoItsParts() throws {
        let keys = try store.lists().map { ListKey(parsing: $0.key) }.sorted {
            $0.description < $1.description
        }
        #expect(keys.map(\.list) == [base + "/offset", base + "/page", base + "/page"])
        #expect(keys.map(\.styleFingerprint) == [nil, "62598c38", "62598c38"])
        #expect(keys.map(\.account) == [.anonymous, .anonymous, Account("user 7")])
        #expect(try store.lists().map(\.key).sorted() == keys.map(\.description))
    }

    @Test func pagersFindTheirListsStyledAndOfTheirAccount() async throws {
        let url = try #require(URL(string: base + "/page"))
        for account in [.anonymous, Account("user 7")] {
            let pager = try Pager<FixtureItem>(
                url: url, style: style, cache: store,
                configuration: HTTPListConfiguration(
                    pager: PagerConfiguration(policy: .cacheOnly, account: account)))
            await pager.start()
            await pager.loadNextPageIfNeeded()
            await pager.loadNextPageIfNeeded()
            let state = await pager.state
            #expect(state.items.map { $0.id.intValue ?? -1 } == Array(1...25), "\(account)")
            #expect(ListKey(parsing: pager.list.key).account == account)
            #expect(ListKey(parsing: pager.list.key).styleFingerprint == "62598c38")
        }
    }

    @Test func theListsMadeBeforeAccountsAreTheAnonymousAccountsAndACredentialDoesNotSeeThem() async throws {
        let url = try #require(URL(string: base + "/page"))
        let anonymous = try Pager<FixtureItem>(
            url: url, style: style, cache: store,
            configuration: HTTPListConfiguration(pager: PagerConfiguration(policy: .cacheOnly)))
        #expect(anonymous.account == .anonymous)
        await anonymous.start()
        #expect(await anonymous.state.items.count == 10)
        let signedIn = try Pager<FixtureItem>(
            url: url, style: style, cache: store,
            configuration: HTTPListConfiguration(
                headers: ["Authorization": "Bearer t"], pager: PagerConfiguration(policy: .cacheOnly)))
        #expect(signedIn.account.isDerived)
        await signedIn.start()
        #expect(await signedIn.state.items.isEmpty)
    }

    @Test func aSyncFindsTheListItFiledUnderThePlainKeyWithNoRequest() async throws {
        let url = try #require(URL(string: base + "/offset"))
        let client = APIClient(
            configuration: try #require(ServerConfiguration(baseURL: url)),
            options: APIClient.Options(retryPolicy: .none))
        let plan = try await SyncPlan.make(storage: store, client: client, url: url)
        #expect(plan.list.key == base + "/offset")
        #expect(plan.stored?.endReached == true)
        let progress = try await ListSync(storage: store, source: plan.source, list: plan.list).run()
        #expect(progress.pagesFetched == 0)
        #expect(progress.endReached)
    }
}
