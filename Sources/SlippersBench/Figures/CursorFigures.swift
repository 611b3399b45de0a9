import Foundation
import LocalAPI

/// A Relay connection 20 ms away, whose cursors say where they point (`arrayconnection:N`, as
/// graphql-relay makes them): our sync reads pages ahead with cursors it makes, against the list's
/// sequential floor (one request after another, each 20 ms away).
enum CursorFigures {
    static let readAhead = FigureGroup(
        id: "cursor-read-ahead",
        summary: "ours: a Relay connection of 5 000 items 20 ms away, read ahead, against its sequential floor"
    ) { context in
        let items = 5_000
        let pageSize = 50
        let pages = items / pageSize
        var configuration = FixtureServer.Configuration(itemCount: items, pageSize: pageSize)
        configuration.latency = NetworkSpeedFigures.latency
        let server = FixtureServer(configuration: configuration)
        try Blocking.run { try await server.start() }
        defer { Blocking.runIgnoringErrors { await server.stop() } }
        let directory = try context.makeDirectory("cursor-read-ahead")
        server.resetRequests()
        let child = try ChildProcess.run(
            context.executablePath,
            [
                "sync-probe", "--url", server.url(.graphql).absoluteString, "--style", SyncProbe.Style.relay.rawValue,
                "--concurrency", String(NetworkSpeedFigures.defaultConcurrency), "--page-size", String(pageSize),
                "--path", directory.appendingPathComponent("relay.sqlite").path,
            ],
            in: directory)
        let outcome = try JSONDecoder().decode(SyncProbe.Outcome.self, from: child.stdout)
        precondition(outcome.items == items, "the sync fetched \(outcome.items) of \(items) items")
        let requests = server.requests.count
        let floor = Double(pages) * NetworkSpeedFigures.latency.microseconds / 1e3
        context.progress.report(
            "relay read ahead: \(String(format: "%.0f", outcome.wallMicroseconds / 1e3)) ms for \(pages) pages, "
                + "\(requests) requests")
        return [
            Figure(
                name:
                    "relay connection, \(items) items 20 ms away, concurrency \(NetworkSpeedFigures.defaultConcurrency)",
                unit: .milliseconds, value: outcome.wallMicroseconds / 1e3,
                baseline: "sequential floor (\(pages) pages x 20 ms)", baselineValue: floor, target: .ratioAtMost(0.3)),
            Figure(
                name: "relay connection, \(items) items: requests past the last page", unit: .requests,
                value: Double(max(0, requests - pages)), baseline: nil, baselineValue: nil, target: .valueAtMost(1)),
        ]
    }
}
