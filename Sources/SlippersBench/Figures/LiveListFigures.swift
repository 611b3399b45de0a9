import Foundation
import LocalAPI
import SlippersKit

/// Lists that change between runs and servers that ration requests: what keeping up costs.
enum LiveListFigures {
    /// One new item on a newest-first list of 2 000, 50 a page: a head refresh against a revalidation.
    ///
    /// Two files hold the same complete list; the server then puts one item at its top. One file
    /// is brought up to date by `ListSync.refreshHead` (what `sync` does for a list whose new
    /// items come first), the other by `ListSync.revalidate` (what `sync --revalidate` does
    /// for any list): the requests are the server's count.
    static let headRefresh = FigureGroup(
        id: "head-refresh",
        summary: "ours: one new item on a 2 000-item newest-first list, head refresh against a revalidation"
    ) { context in
        let server = FixtureServer(configuration: .init(itemCount: 2_000, pageSize: 50))
        try Blocking.run { try await server.start() }
        defer { Blocking.runIgnoringErrors { await server.stop() } }
        let url = server.url(.drf)
        guard let configuration = ServerConfiguration(baseURL: url) else { throw LiveListFigureError.noHost }
        let client = APIClient(configuration: configuration)
        func synced(_ directory: URL) throws -> (SQLiteCache, SyncPlan) {
            let store = try SQLiteCache(path: directory.appendingPathComponent("cache.sqlite").path)
            let plan = try Blocking.run {
                let plan = try await SyncPlan.make(storage: store, client: client, url: url)
                try await ListSync(storage: store, source: plan.source, list: plan.list).run()
                return try await SyncPlan.make(storage: store, client: client, url: url)
            }
            return (store, plan)
        }
        let (head, headPlan) = try synced(try context.makeDirectory("head-refresh"))
        let (whole, wholePlan) = try synced(try context.makeDirectory("head-revalidate"))
        server.insertAtTop(count: 1)
        let clock = ContinuousClock()

        server.resetRequests()
        var start = clock.now
        let found = try Blocking.run {
            try await ListSync(storage: head, source: headPlan.source, list: headPlan.list)
                .refreshHead()
        }
        let headTime = start.duration(to: clock.now)
        let headRequests = server.requestCount
        precondition(found.added == 1 && !found.totalDiffers, "the head refresh found \(found)")

        server.resetRequests()
        start = clock.now
        let revalidated = try Blocking.run {
            try await ListSync(storage: whole, source: wholePlan.source, list: wholePlan.list)
                .revalidate()
        }
        let revalidationTime = start.duration(to: clock.now)
        let revalidationRequests = server.requestCount
        precondition(revalidated.endReached, "the revalidation stopped early")
        context.progress.report(
            "head refresh: \(headRequests) requests; revalidation: \(revalidationRequests) requests, "
                + "\(revalidated.changed) pages changed")
        return [
            Figure(
                name: "one new item on 2 000 newest first: head refresh requests against a revalidation",
                unit: .requests, value: Double(headRequests), baseline: "sync --revalidate",
                baselineValue: Double(revalidationRequests), target: .ratioAtMost(0.1)),
            Figure(
                name: "one new item on 2 000 newest first: head refresh requests",
                unit: .requests, value: Double(headRequests), baseline: nil, baselineValue: nil,
                target: .valueAtMost(3)),
            Figure(
                name: "one new item on 2 000 newest first: head refresh time against a revalidation",
                unit: .milliseconds, value: headTime.milliseconds, baseline: "sync --revalidate",
                baselineValue: revalidationTime.milliseconds, target: .ratioAtMost(0.25)),
        ]
    }

    /// A list behind a GitHub-style rate limit, synced: its time against what the budget allows.
    ///
    /// 100 pages behind 20 requests per 2-second window (`X-RateLimit-*`, `403` when spent): the
    /// first 20 go at once, then each window gives 20 more, so the budget allows the list in no
    /// less than 4 windows after the first (8 s). The target is the issue's: within 1.25 times
    /// that, plus a second, and at most one refused request.
    static let pacedRun = FigureGroup(
        id: "paced-run",
        summary: "ours: a sync through a rate limit of 20 requests per 2 s, time against the budget's floor"
    ) { context in
        let (pages, limit, window) = (100, 20, 2)
        let list = RateLimitedList(.gitHub, limit: limit, window: window, pages: pages)
        let server = FixtureServer()
        try Blocking.run { try await server.start() }
        defer { Blocking.runIgnoringErrors { await server.stop() } }
        list.install(on: server)
        let url = server.url(path: "/items")
        guard let configuration = ServerConfiguration(baseURL: url) else { throw LiveListFigureError.noHost }
        let client = APIClient(configuration: configuration)
        let path = try context.makeDirectory("paced-run").appendingPathComponent("cache.sqlite").path
        let store = try SQLiteCache(path: path)
        let clock = ContinuousClock()
        let start = clock.now
        let progress = try Blocking.run {
            let plan = try await SyncPlan.make(storage: store, client: client, url: url)
            return try await ListSync(storage: store, source: plan.source, list: plan.list).run()
        }
        let elapsed = start.duration(to: clock.now)
        precondition(progress.endReached && list.served == pages, "the paced run ended short: \(progress)")
        let floor = Double((pages + limit - 1) / limit - 1) * Double(window)
        context.progress.report("paced run: \(elapsed), \(list.refused) refused, floor \(floor) s")
        return [
            Figure(
                name: "100 pages through 20 requests per 2 s: time against the budget's floor",
                unit: .milliseconds, value: elapsed.milliseconds, baseline: "the budget's floor (8 s)",
                baselineValue: floor * 1_000, target: .ratioAtMost((1.25 * floor + 1) / floor)),
            Figure(
                name: "100 pages through 20 requests per 2 s: refused requests",
                unit: .requests, value: Double(list.refused), baseline: nil, baselineValue: nil,
                target: .valueAtMost(1)),
        ]
    }
}

/// Why a live-list figure could not run.
enum LiveListFigureError: Error {
    /// The fixture server's URL has no host.
    case noHost
}
