import Foundation
import InMemoryTracing
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersSQLite
import SlippersStorage
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sync's spans cost nothing without a tracer, and little with one.
///
/// A list is synced from the fixture API (in this process) into a new cache file, one page at a
/// time, nine times after one warm-up: with the tracer a program has when it bootstrapped none
/// (`InstrumentationSystem.tracer`, the no-op, as this benchmark never bootstraps one) and with a
/// tracer that keeps every span in memory, the two alternating which goes first. The no-op spans of
/// a page (its `slippers.page` span and its request's `HTTP GET`, through the very functions the
/// sync and the client call) are then timed apart, 20 000 pages at a time: the sync's page less
/// their cost is the page without spans, which no build of the library can run.
enum TracingFigures {
    static let tracing = FigureGroup(
        id: "tracing",
        summary: "ours: a sync's spans with no tracer bootstrapped (no-op) and with one that keeps them in memory"
    ) { context in
        let items = context.sizes.syncItems.small
        let directory = try context.makeDirectory("tracing")
        let progress = context.progress
        return try Blocking.run {
            try await measure(items: items, directory: directory, progress: progress)
        }
    }

    private static let pageSize = 100
    private static let rounds = 9
    private static let spanRepetitions = 20_000

    private static func measure(items: Int, directory: URL, progress: Progress) async throws -> [Figure] {
        let server = FixtureServer(configuration: .init(itemCount: items, pageSize: pageSize))
        try await server.start()
        let keeping = InMemoryTracer()
        var walls: [Bool: [Duration]] = [false: [], true: []]
        var pages = 0
        do {
            for round in 0...rounds {
                for traced in round % 2 == 0 ? [false, true] : [true, false] {
                    let path = directory.appendingPathComponent("sync-\(round)-\(traced).sqlite").path
                    let tracer: any Tracer = traced ? keeping : InstrumentationSystem.tracer
                    let (wall, fetched) = try await sync(from: server, into: path, tracer: tracer)
                    keeping.clearAll()
                    if round > 0 { walls[traced]?.append(wall) }
                    pages = fetched
                }
            }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
        let untraced = Measurement(samples: walls[false] ?? []).median
        let traced = Measurement(samples: walls[true] ?? []).median
        let spans = try await noOpSpansOfAPage()
        let page = untraced / pages
        progress.report(
            "tracing: \(items) items in \(untraced.secondsText) without a tracer, \(traced.secondsText) keeping spans; "
                + "no-op spans of a page: \(String(format: "%.2f", spans.microseconds)) µs")
        return [
            Figure(
                name: "sync \(items) items, no tracer bootstrapped: a page with its no-op spans (page, request)",
                unit: .microseconds, value: page.microseconds,
                baseline: "the page less its no-op spans, timed apart", baselineValue: (page - spans).microseconds,
                target: .ratioAtMost(1.02)),
            Figure(
                name: "sync \(items) items: wall time with a tracer that keeps every span in memory",
                unit: .milliseconds, value: traced.milliseconds, baseline: "no tracer bootstrapped",
                baselineValue: untraced.milliseconds, target: .information),
        ]
    }

    /// Syncs the fixture's list into a new file at `path` with `tracer`: the wall time and the pages fetched.
    private static func sync(
        from server: FixtureServer, into path: String, tracer: any Tracer
    ) async throws -> (Duration, Int) {
        let store = try SQLiteCache(path: path)
        guard let configuration = ServerConfiguration(baseURL: server.baseURL) else {
            throw TracingFigureError(description: "the fixture's URL names no host")
        }
        let client = APIClient(configuration: configuration, options: APIClient.Options(tracer: tracer))
        let source = HTTPPageSource(
            client: client, url: server.url(.page),
            style: .pageNumber(pageSize: pageSize, itemsKeyPath: "results", totalKeyPath: "total"))
        var sync = ListSync(
            storage: store, source: source,
            list: ListDescriptor(key: source.listKey, itemType: "FixtureItem"))
        sync.tracer = tracer
        let start = ContinuousClock.now
        let progress = try await sync.run()
        return (start.duration(to: .now), progress.pagesFetched)
    }

    /// What the no-op spans of one page cost: its page span around its request's span, with no
    /// tracer bootstrapped; the median of five batches.
    private static func noOpSpansOfAPage() async throws -> Duration {
        let tracer = InstrumentationSystem.tracer
        let list = ListDescriptor(key: "http://127.0.0.1:1/page", itemType: "FixtureItem")
        guard let url = URL(string: "http://127.0.0.1:1/page?page=1") else {
            throw TracingFigureError(description: "no URL")
        }
        let request = URLRequest(url: url)
        let origin = Origin(scheme: "http", host: "127.0.0.1", port: 1)
        let response = NetworkResponse(statusCode: 200, body: Data("{}".utf8))
        let result = PageResult<RawItem>.page(Page(items: []))
        var batches: [Duration] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for index in 0..<spanRepetitions {
                _ = try await SyncTracing.page(tracer, index: index, list: list) {
                    _ = try await RequestTracing.request(tracer, request, origin: origin) { _ in response }
                    return result
                }
            }
            batches.append(start.duration(to: .now) / spanRepetitions)
        }
        return Measurement(samples: batches).median
    }

    private struct TracingFigureError: Error, CustomStringConvertible {
        var description: String
    }
}
