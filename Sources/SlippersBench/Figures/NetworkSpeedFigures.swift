import Foundation
import SlippersFixtures

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

            let sequentialPages = try run.sequentialClient(.page)
            server.resetRequests()
            let concurrentPages = try run.sync(.page, concurrency: defaultConcurrency)
            let pageRequests = server.requests.count
            let sequentialCursor = try run.sequentialClient(.cursor)
            let overlappedCursor = try run.sync(.cursor, concurrency: 1)

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

        /// What the hand-written client measured.
        func sequentialClient(_ paging: SequentialClientProbe.Paging) throws -> SequentialClientProbe.Outcome {
            let route: FixtureServer.Route = paging == .page ? .page : .cursor
            let child = try ChildProcess.run(
                context.executablePath,
                [
                    "sequential-client-probe", "--url", server.url(route).absoluteString, "--paging", paging.rawValue,
                    "--page-size", String(pageSize), "--path", file("client-\(paging.rawValue)"),
                ],
                in: directory)
            let outcome = try JSONDecoder().decode(SequentialClientProbe.Outcome.self, from: child.stdout)
            precondition(outcome.items == items, "the client fetched \(outcome.items) of \(items) items")
            context.progress.report(
                "sequential client, \(paging.rawValue), \(variant): \(Self.seconds(outcome.wallMicroseconds)) s")
            return outcome
        }

        /// Our sync, by page number or by cursor.
        func sync(_ style: SyncProbe.Style, concurrency: Int) throws -> SyncProbe.Outcome {
            let route: FixtureServer.Route = style == .page ? .page : .cursor
            let child = try ChildProcess.run(
                context.executablePath,
                [
                    "sync-probe", "--url", server.url(route).absoluteString, "--style", style.rawValue,
                    "--concurrency", String(concurrency), "--page-size", String(pageSize),
                    "--path", file("sync-\(style.rawValue)"),
                ],
                in: directory)
            let outcome = try JSONDecoder().decode(SyncProbe.Outcome.self, from: child.stdout)
            precondition(outcome.items == items, "the sync fetched \(outcome.items) of \(items) items")
            context.progress.report(
                "slippers sync, \(style.rawValue), concurrency \(concurrency), \(variant): "
                    + "\(Self.seconds(outcome.wallMicroseconds)) s")
            return outcome
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
