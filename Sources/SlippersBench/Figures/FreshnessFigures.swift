import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersSQLite
import SlippersStorage

/// The freshness model's figures: a relaunch on an unchanged list, and `sync --revalidate` of it.
///
/// A list of 2 000 pages is synced from the fixture API on 127.0.0.1 (ETags on),
/// then a new pager opens the cache as a relaunched app would and scrolls to
/// the end of the list; the server's request log counts what it cost. Then the
/// whole list is revalidated page by page, as `slippers sync --revalidate` does,
/// with the cache's item writes counted by triggers.
enum FreshnessFigures {
    static let relaunch = FigureGroup(
        id: "relaunch",
        summary: "ours: relaunch on an unchanged list of 2 000 pages (requests, time); revalidate it page by page"
    ) { context in
        let pageCount = context.sizes.revalidatedPages
        let pageSize = context.workload.pageSize
        let server = FixtureServer(configuration: .init(itemCount: pageCount * pageSize, pageSize: pageSize))
        try Blocking.run { try await server.start() }
        defer { Blocking.runIgnoringErrors { await server.stop() } }
        guard let configuration = ServerConfiguration(baseURL: server.baseURL) else {
            preconditionFailure("the fixture server's URL is always a server configuration")
        }
        let source = HTTPPageSource(
            client: APIClient(configuration: configuration, options: APIClient.Options(retryPolicy: .none)),
            url: server.url(.page),
            style: .pageNumber(firstPage: 1, pageSize: pageSize, itemsKeyPath: "results"))
        let list = ListDescriptor(key: source.listKey, itemType: "FixtureItem")
        let path = try context.makeDirectory("relaunch").appendingPathComponent("cache.sqlite").path
        let store = try SQLiteCache(path: path)
        let synced = try Blocking.run {
            try await ListSync(storage: store, source: source, list: list).run()
        }
        precondition(synced.endReached && synced.pagesCached == pageCount, "the first launch cached the list")
        context.progress.report("cached \(pageCount) pages from the fixture API")

        server.resetRequests()
        let clock = ContinuousClock()
        let relaunchStart = clock.now
        let shown = try Blocking.run {
            let pager = Pager<FixtureItem>(
                cache: store, source: source,
                list: ListDescriptor(key: source.listKey, of: FixtureItem.self))
            await pager.start()
            while await !pager.state.endReached { await pager.loadNextPageIfNeeded() }
            return await pager.state.pages.count
        }
        let relaunchElapsed = relaunchStart.duration(to: clock.now)
        precondition(shown == pageCount, "the relaunched pager showed \(shown) of \(pageCount) pages")
        let relaunchRequests = server.requestCount

        let counter = try WriteCounter(path: path)
        let before = try counter.counts()
        server.resetRequests()
        let revalidateStart = clock.now
        let found = try Blocking.run {
            try await ListSync(storage: store, source: source, list: list).revalidate()
        }
        let revalidateElapsed = revalidateStart.duration(to: clock.now)
        let after = try counter.counts()
        precondition(found.unchanged == pageCount, "sync --revalidate found \(found.unchanged) pages unchanged")
        return [
            Figure(
                name: "relaunch on an unchanged list of \(pageCount) pages, scrolled to its end: requests",
                unit: .requests, value: Double(relaunchRequests), baseline: nil, baselineValue: nil,
                target: .valueAtMost(1)),
            Figure(
                name: "relaunch on an unchanged list of \(pageCount) pages: time to start and scroll to its end",
                unit: .milliseconds, value: relaunchElapsed.milliseconds, baseline: nil, baselineValue: nil,
                target: .information),
            Figure(
                name: "sync --revalidate of \(pageCount) unchanged pages: requests (one conditional each)",
                unit: .requests, value: Double(server.requestCount), baseline: nil, baselineValue: nil,
                target: .valueAtMost(Double(pageCount))),
            Figure(
                name: "sync --revalidate of \(pageCount) unchanged pages: item rows rewritten",
                unit: .rows, value: Double(after.itemWrites - before.itemWrites), baseline: nil, baselineValue: nil,
                target: .valueAtMost(0)),
            Figure(
                name: "sync --revalidate of \(pageCount) unchanged pages: time",
                unit: .milliseconds, value: revalidateElapsed.milliseconds, baseline: nil, baselineValue: nil,
                target: .information),
        ]
    }
}
