import Foundation
import LocalAPI
import Slippers
import SlippersKit
import SlippersStorage

/// The steps of `slippers demo`, each done with the libraries and told in one line.
struct DemoStory {
    /// The embedded API, already started.
    var server: FixtureServer
    /// The new cache file.
    var path: String
    /// Whether the file stays after the demo (it was named with --db).
    var keepsFile: Bool

    private let clock = ContinuousClock()

    func tell() async throws {
        let started = clock.now
        let store = try SQLiteCache(path: path)
        let client = APIClient(
            configuration: ServerConfiguration(scheme: "http", host: "127.0.0.1", port: server.port),
            options: APIClient.Options(retryPolicy: .none))
        let postsURL = server.url(.page)
        print("Slippers demo: a paginated JSON API on \(server.baseURL.absoluteString), a new cache at \(path)")
        print("")

        // 1. Sync the list into the cache, the style detected from the first page.
        let posts = try await SyncPlan.make(
            storage: store, client: client, url: postsURL, headers: [:], overrides: StyleOverrides(),
            itemType: "Post", refresh: false)
        let first = try await timed {
            try await ListSync(storage: store, source: posts.source, list: posts.list).run()
        }
        let style = posts.style.styleName
        print(
            "1. Synced \(first.value.itemsFetched) items in \(first.value.pagesFetched) pages from \(postsURL.absoluteString) "
                + "(style detected: \(style)) in \(first.seconds)")

        // 2. A pager that trusts a fresh cache reads it without a request, its window growing page by page.
        server.resetRequests()
        let reader = try pager(store: store, plan: posts, policy: .cacheFirst(maxAge: 3600))
        await reader.start()
        await Self.scrollToTheEnd(reader)
        let cached = await reader.state
        print(
            "2. Second pass: \(cached.items.count) items in \(cached.pages.count) pages from the cache, "
                + "\(Formatting.count(server.requestCount, "network request"))")

        // 3. With the server down, a cache-then-network pager still pages through the cached list.
        await server.stop()
        let offline = try pager(store: store, plan: posts, policy: .cacheThenNetwork)
        await offline.start()
        await Self.scrollToTheEnd(offline)
        let offlineState = await offline.state
        // The first clause of the error is enough here: what failed, not the request it failed for.
        let failure = offlineState.refresh.error.map { error in
            String(describing: error).components(separatedBy: " (").first ?? ""
        }
        print(
            "3. Server offline: the pager still shows the \(offlineState.items.count) cached items; "
                + "its network check failed (\(failure ?? "no error"))")
        try await server.start()

        // 4. A sync that stops after 4 pages (as a killed one would) continues in a new run, at page 5.
        let commentsURL = server.url(.offset, query: ["limit": "25"])
        let stopped = try await SyncPlan.make(
            storage: store, client: client, url: commentsURL, headers: [:], overrides: StyleOverrides(),
            itemType: "Comment", refresh: false)
        try await ListSync(storage: store, source: stopped.source, list: stopped.list).run(
            maxPages: 4)
        server.resetRequests()
        let resumedPlan = try await SyncPlan.make(
            storage: store, client: client, url: commentsURL, headers: [:], overrides: StyleOverrides(),
            itemType: "Comment", refresh: false)
        let resumed = try await ListSync(
            storage: store, source: resumedPlan.source, list: resumedPlan.list
        ).run()
        // Page 5 is asked for from the item before it, at offset 99; the first 4 pages start before it.
        let refetched = server.requests.filter { Int($0.query["offset"] ?? "") ?? 0 < 4 * 25 - 1 }.count
        print(
            "4. Resume: a sync stopped after 4 pages (in this process, as a killed one would) continued at page "
                + "\(resumed.startIndex + 1) in a new run: \(resumed.pagesFetched) more pages, "
                + "\(refetched) of the first 4 fetched again")

        // 5. New items at the top: the pager's refresh starts a new generation; no id shows twice.
        server.insertAtTop(count: 3)
        let refreshing = try pager(store: store, plan: posts, policy: .cacheThenNetwork)
        await refreshing.start()
        try await refreshing.refresh()
        let afterFirstPage = await refreshing.state
        // The unverified pages stay shown until the new generation replaces them, page by page.
        var reloaded = 1
        while await !refreshing.state.endReached, reloaded < 100 {
            await refreshing.loadNextPageIfNeeded()
            reloaded += 1
        }
        let ids = await refreshing.state.items.map(\.id)
        let duplicatesMeanwhile = afterFirstPage.items.count - Set(afterFirstPage.items.map(\.id)).count
        let duplicates = ids.count - Set(ids).count
        print(
            "5. Refresh: 3 new items at the top (ids \(ids.prefix(3).map(\.description).joined(separator: ", "))); "
                + "the old pages stayed readable, marked unverified, while \(reloaded) pages reloaded; "
                + "now \(ids.count) items, \(Self.duplicates(duplicates + duplicatesMeanwhile))")

        let total = started.duration(to: clock.now).timeInterval
        try store.close()
        print("")
        print(
            "Done in \(String(format: "%.1f", total)) s. "
                + (keepsFile
                    ? "The cache stays at \(path): try `slippers lists --db \(path)`."
                    : "The temporary cache was removed; run with --db FILE to keep one."))
    }

    /// A pager of the synced list: the list the sync filled, found from the URL and the style.
    private func pager(store: SQLiteCache, plan: SyncPlan, policy: CachePolicy) throws -> Pager<FixtureItem> {
        try Pager(http: plan.source.base, cache: store, configuration: PagerConfiguration(policy: policy))
    }

    /// Shows the pager's pages one after the other, as a list scrolled to its end would.
    private static func scrollToTheEnd(_ pager: Pager<FixtureItem>) async {
        var loads = 0
        while await !pager.state.endReached, loads < 1000 {
            let shown = await pager.state.pages.count
            await pager.loadNextPageIfNeeded()
            // Nothing more to show (offline, past the cached pages): stop.
            guard await pager.state.pages.count > shown else { return }
            loads += 1
        }
    }

    private func timed<T>(_ body: () async throws -> T) async rethrows -> (value: T, seconds: String) {
        let start = clock.now
        let value = try await body()
        return (value, String(format: "%.2f s", start.duration(to: clock.now).timeInterval))
    }

    private static func duplicates(_ count: Int) -> String {
        count == 0 ? "no duplicates" : Formatting.count(count, "duplicate")
    }
}
