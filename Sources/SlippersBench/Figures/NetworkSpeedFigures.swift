import Foundation
import LocalAPI

/// Syncing from an API 20 ms away, against a sequential client written by hand, in the same run.
///
/// The fixture server runs in this process and waits 20 ms before each
/// answer, as a distant server does; it is served once with `TCP_NODELAY` and
/// once without (head and body in two writes, as Python's `http.server`
/// sends them). Each sync runs in a child process: ``SequentialClientProbe``
/// for the baseline (a page, `JSONDecoder`, an SQLite transaction, the next
/// page), ``SyncProbe`` for ours. The page-number sync asks for
/// ``defaultConcurrency`` pages at once; the cursor sync can only ask for one
/// page after another, and overlaps each page's save with the next request.
/// Two next-URL lists are detected as `slippers sync` detects them: a
/// Django REST framework one (`next` is the URL with `page=N+1`, `count` the
/// total) and a GitHub one (a bare array, `Link` with `rel="next"` and
/// `rel="last"`); both name every page, so they too are fetched
/// ``defaultConcurrency`` at once, and end where the total or the last page says.
enum NetworkSpeedFigures {
    /// The wait the server adds before every answer.
    static let latency = Duration.milliseconds(20)
    /// The concurrency `slippers sync` uses unless told otherwise.
    static let defaultConcurrency = 6

    static let networkSpeed = FigureGroup(
        id: "network-speed",
        summary:
            "ours: sync 20 000 items from an API 20 ms away (with and without TCP_NODELAY) against a sequential client"
    ) { context in
        let items = context.sizes.networkItems
        let pageSize = context.workload.pageSize
        let pages = (items + pageSize - 1) / pageSize
        let directory = try context.makeDirectory("network-speed")
        var figures: [Figure] = []
        for noDelay in [true, false] {
            var configuration = FixtureServer.Configuration(itemCount: items, pageSize: pageSize)
            configuration.latency = latency
            configuration.noDelay = noDelay
            let server = FixtureServer(configuration: configuration)
            try Blocking.run { try await server.start() }
            defer { Blocking.runIgnoringErrors { await server.stop() } }
            let variant = noDelay ? "TCP_NODELAY" : "no TCP_NODELAY"
            let run = Run(
                context: context, directory: directory, server: server, items: items, pageSize: pageSize,
                variant: noDelay ? "nodelay" : "nagle")

            let sequentialPages = try run.sequentialClient(.page, route: .page)
            server.resetRequests()
            let concurrentPages = try run.sync(.page, route: .page, concurrency: defaultConcurrency)
            let pageRequests = server.requests.count
            let sequentialCursor = try run.sequentialClient(.cursor, route: .cursor)
            let overlappedCursor = try run.sync(.cursor, route: .cursor, concurrency: 1)

            let prefix = "\(items) items, \(latency.microseconds / 1e3) ms away, \(variant):"
            figures += [
                Figure(
                    name: "\(prefix) page-number sync, concurrency \(defaultConcurrency)", unit: .milliseconds,
                    value: concurrentPages.wallMicroseconds / 1e3, baseline: "sequential hand-written client",
                    baselineValue: sequentialPages.wallMicroseconds / 1e3, target: .ratioAtMost(0.25)),
                Figure(
                    name: "\(prefix) cursor sync, writes overlapped", unit: .milliseconds,
                    value: overlappedCursor.wallMicroseconds / 1e3, baseline: "sequential hand-written client",
                    baselineValue: sequentialCursor.wallMicroseconds / 1e3, target: .ratioAtMost(1.0)),
                Figure(
                    name: "\(prefix) cursor sync: from a page's arrival to the next request", unit: .microseconds,
                    value: overlappedCursor.requestGapMicroseconds, baseline: "sequential hand-written client",
                    baselineValue: sequentialCursor.requestGapMicroseconds, target: .information),
                Figure(
                    name: "\(prefix) page-number sync: requests past the last page (\(pages) pages)",
                    unit: .requests, value: Double(pageRequests - pages), baseline: nil, baselineValue: nil,
                    target: .valueAtMost(0)),
                Figure(
                    name: "\(prefix) page-number sync: peak RSS of the syncing process", unit: .megabytes,
                    value: Double(concurrentPages.peakBytes) / 1_048_576, baseline: nil, baselineValue: nil,
                    target: .information),
            ]
            for (paging, route, shape) in [
                (SequentialClientProbe.Paging.next, FixtureServer.Route.drf, "DRF next URL with count"),
                (.link, .link, #"GitHub Link with rel="last""#),
            ] {
                let sequential = try run.sequentialClient(paging, route: route)
                server.resetRequests()
                let detected = try run.sync(.detect, route: route, concurrency: defaultConcurrency)
                let requests = server.requests.count
                figures += [
                    Figure(
                        name: "\(prefix) \(shape), detected, concurrency \(defaultConcurrency)",
                        unit: .milliseconds, value: detected.wallMicroseconds / 1e3,
                        baseline: "sequential hand-written client", baselineValue: sequential.wallMicroseconds / 1e3,
                        target: .ratioAtMost(0.25)),
                    Figure(
                        name: "\(prefix) \(shape): requests past the last page (\(pages) pages)", unit: .requests,
                        value: Double(requests - pages), baseline: nil, baselineValue: nil, target: .valueAtMost(0)),
                ]
            }
        }
        return figures
    }

    /// The child processes of one server variant.
    private struct Run {
        var context: FigureContext
        var directory: URL
        var server: FixtureServer
        var items: Int
        var pageSize: Int
        var variant: String

        /// What the hand-written client measured, paging `route` as `paging` says.
        func sequentialClient(
            _ paging: SequentialClientProbe.Paging, route: FixtureServer.Route
        ) throws -> SequentialClientProbe.Outcome {
            let child = try ChildProcess.run(
                context.executablePath,
                [
                    "sequential-client-probe", "--url", firstURL(route).absoluteString, "--paging", paging.rawValue,
                    "--page-size", String(pageSize), "--path", file("client-\(paging.rawValue)"),
                ],
                in: directory)
            let outcome = try JSONDecoder().decode(SequentialClientProbe.Outcome.self, from: child.stdout)
            precondition(outcome.items == items, "the client fetched \(outcome.items) of \(items) items")
            context.progress.report(
                "sequential client, \(paging.rawValue), \(variant): \(Self.seconds(outcome.wallMicroseconds)) s")
            return outcome
        }

        /// Our sync of `route`, by page number, by cursor, or with the style detected.
        func sync(_ style: SyncProbe.Style, route: FixtureServer.Route, concurrency: Int) throws -> SyncProbe.Outcome {
            let child = try ChildProcess.run(
                context.executablePath,
                [
                    "sync-probe", "--url", firstURL(route).absoluteString, "--style", style.rawValue,
                    "--concurrency", String(concurrency), "--page-size", String(pageSize),
                    "--path", file("sync-\(route.rawValue.dropFirst())"),
                ],
                in: directory)
            let outcome = try JSONDecoder().decode(SyncProbe.Outcome.self, from: child.stdout)
            precondition(outcome.items == items, "the sync fetched \(outcome.items) of \(items) items")
            context.progress.report(
                "slippers sync, \(route.rawValue), \(style.rawValue), concurrency \(concurrency), \(variant): "
                    + "\(Self.seconds(outcome.wallMicroseconds)) s")
            return outcome
        }

        /// The URL of a route's first page: the bare route, or for the next-URL routes the route
        /// with its page size, as a user names it.
        private func firstURL(_ route: FixtureServer.Route) -> URL {
            switch route {
            case .drf: server.url(route, query: ["page_size": String(pageSize)])
            case .link: server.url(route, query: ["per_page": String(pageSize)])
            default: server.url(route)
            }
        }

        /// A new database file for one child.
        private func file(_ name: String) -> String {
            let url = directory.appendingPathComponent("\(name)-\(variant).sqlite")
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
            return url.path
        }

        private static func seconds(_ microseconds: Double) -> String {
            String(format: "%.2f", microseconds / 1e6)
        }
    }
}
