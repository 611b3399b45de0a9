import Foundation
import LocalAPI
import LocalPostgres

/// A fleet of `slippers worker` processes on one PostgreSQL database the benchmark starts.
///
/// The fixture API answers every page 20 ms late, as a remote server would; each list is
/// synced one page after another, so that what grows with the workers is the number of lists
/// in flight. The same queue is run by 1, 2 and 4 worker processes, each on a new database;
/// then one list without latency is synced into a new file and a new PostgreSQL database,
/// three times each, for the backends' write rates (a median). The 4 workers' run is repeated with
/// metrics off (no backend: swift-metrics' no-op) and on (`worker --metrics`, which bootstraps
/// swift-prometheus in each worker, as a fleet runs), three times each in alternating order, for
/// what the metrics cost (the medians). Needs the `slippers` executable
/// next to this one (`swift build -c release`)
/// and PostgreSQL's binaries; without them the group says why and reports nothing.
enum FleetFigures {
    static let fleet = FigureGroup(
        id: "fleet",
        summary:
            "ours: lists 20 ms away synced by 1, 2 and 4 worker processes on one PostgreSQL, metrics off and on; its write rate against a file's"
    ) { context in
        let slippers = URL(fileURLWithPath: context.executablePath).deletingLastPathComponent()
            .appendingPathComponent("slippers").path
        guard FileManager.default.isExecutableFile(atPath: slippers) else {
            context.progress.report("fleet: skipped, no slippers executable beside this one (swift build -c release)")
            return []
        }
        guard PostgresServer.binaries != nil else {
            context.progress.report("fleet: skipped, PostgreSQL is not installed (apt-get install postgresql)")
            return []
        }
        let (lists, items) = context.sizes.fleet
        let directory = try context.makeDirectory("fleet")
        let progress = context.progress
        return try Blocking.run {
            try await PostgresServer.with { server in
                try await measure(
                    slippers: slippers, server: server, lists: lists, items: items, directory: directory,
                    progress: progress)
            }
        }
    }

    /// One run of the queue by `workers` processes.
    private struct Run {
        var wall: Duration
        var peakBytes: [Int]
        var requestsPastTheEnd: Int
    }

    private static let pageSize = 100

    private static func measure(
        slippers: String, server: PostgresServer, lists: Int, items: Int, directory: URL, progress: Progress
    ) async throws -> [Figure] {
        var configuration = FixtureServer.Configuration(itemCount: items, pageSize: pageSize)
        configuration.latency = .milliseconds(20)
        let fixture = FixtureServer(configuration: configuration)
        try await fixture.start()
        var runs: [Int: Run] = [:]
        // The 4 workers' wall times with metrics off and on, rounds alternating which goes first.
        var metered: [Bool: [Duration]] = [false: [], true: []]
        do {
            for workers in [1, 2, 4] {
                let run = try await runQueue(
                    slippers: slippers, server: server, fixture: fixture, lists: lists, items: items, workers: workers,
                    directory: directory)
                progress.report(
                    "fleet: \(lists) lists of \(items) items by \(workers) workers in \(run.wall.secondsText)")
                runs[workers] = run
            }
            for round in 0..<3 {
                for metrics in round % 2 == 0 ? [false, true] : [true, false] {
                    let run = try await runQueue(
                        slippers: slippers, server: server, fixture: fixture, lists: lists, items: items, workers: 4,
                        directory: directory, metrics: metrics)
                    progress.report(
                        "fleet: 4 workers, metrics \(metrics ? "on" : "off"), in \(run.wall.secondsText)")
                    metered[metrics]?.append(run.wall)
                }
            }
            await fixture.stop()
        } catch {
            await fixture.stop()
            throw error
        }
        let rates = try await writeRates(slippers: slippers, server: server, directory: directory, progress: progress)
        let one = runs[1]!
        let four = runs[4]!
        func seconds(_ duration: Duration) -> Double { duration.milliseconds }
        func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
        let metricsOff = Measurement(samples: metered[false] ?? []).median
        let metricsOn = Measurement(samples: metered[true] ?? []).median
        let name = "\(lists) lists × \(items) items, 20 ms a page"
        return [
            Figure(
                name: "fleet \(name): wall time, 4 workers", unit: .milliseconds, value: seconds(four.wall),
                baseline: "1 worker", baselineValue: seconds(one.wall), target: .fasterBy(3)),
            Figure(
                name: "fleet \(name): wall time, 4 workers with metrics on (Prometheus, as `worker --metrics`)",
                unit: .milliseconds, value: seconds(metricsOn), baseline: "metrics off (no backend), median of 3",
                baselineValue: seconds(metricsOff), target: .ratioAtMost(1.05)),
            Figure(
                name: "fleet \(name): wall time, 4 workers with metrics on", unit: .milliseconds,
                value: seconds(metricsOn), baseline: "1 worker, metrics off", baselineValue: seconds(one.wall),
                target: .fasterBy(3)),
            Figure(
                name: "fleet \(name): wall time, 2 workers", unit: .milliseconds, value: seconds(runs[2]!.wall),
                baseline: "1 worker", baselineValue: seconds(one.wall), target: .information),
            Figure(
                name: "fleet \(name): requests past each list's end, all runs", unit: .requests,
                value: Double(runs.values.map(\.requestsPastTheEnd).reduce(0, +)), baseline: nil, baselineValue: nil,
                target: .valueAtMost(0)),
            Figure(
                name: "fleet \(name): peak RSS of a worker, 4 workers (10 lists each)", unit: .megabytes,
                value: megabytes(four.peakBytes.max() ?? 0), baseline: "1 worker (all \(lists) lists)",
                baselineValue: megabytes(one.peakBytes.max() ?? 0), target: .ratioAtMost(1.1)),
            Figure(
                name: "sync \(rates.items) items into PostgreSQL: items written per second", unit: .rows,
                value: rates.postgres, baseline: "into a file (SQLite)", baselineValue: rates.sqlite,
                target: .ratioAtLeast(0.5)),
        ]
    }

    /// Enqueues the lists on a new database and runs `workers` worker processes to the queue's end.
    /// With `metrics`, each worker serves its metrics on a port of its own (`--metrics 127.0.0.1:0`).
    private static func runQueue(
        slippers: String, server: PostgresServer, fixture: FixtureServer, lists: Int, items: Int, workers: Int,
        directory: URL, metrics: Bool = false
    ) async throws -> Run {
        let database = ["--db", server.url(database: try await server.makeDatabase())]
        let urls = (1...lists).map { fixture.url(.page, query: ["list": String($0)]).absoluteString }
        try await runToEnd(
            slippers, ["enqueue"] + database + urls + ["--concurrency", "1", "--page-size", String(pageSize)],
            directory: directory)
        let requestsBefore = fixture.requestCount
        let clock = ContinuousClock()
        let start = clock.now
        let processes = try (0..<workers).map { index in
            try SpawnedProcess.spawn(
                slippers,
                ["worker", "--until-empty", "--poll", "0.1"] + database
                    + (metrics ? ["--metrics", "127.0.0.1:0"] : []),
                environment: ProcessInfo.processInfo.environment,
                output: directory.appendingPathComponent("worker-\(workers)-\(index).out").path,
                error: directory.appendingPathComponent("worker-\(workers)-\(index).err").path)
        }
        for process in processes {
            while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
            guard process.terminationStatus == 0 else {
                throw FleetFailure(description: "a worker exited with status \(process.terminationStatus)")
            }
        }
        let wall = start.duration(to: clock.now)
        // A worker that served its metrics said where: the figure is of metrics that were on.
        for index in 0..<workers where metrics {
            let error = directory.appendingPathComponent("worker-\(workers)-\(index).err").path
            guard (try? String(contentsOfFile: error, encoding: .utf8))?.contains("metrics on http://") == true else {
                throw FleetFailure(description: "worker \(index) did not serve its metrics")
            }
        }
        let lastPage = (items + pageSize - 1) / pageSize
        let pastTheEnd = fixture.requests.dropFirst(requestsBefore).filter {
            (Int($0.query["page"] ?? "") ?? 0) > lastPage
        }
        return Run(wall: wall, peakBytes: processes.map(\.peakResidentBytes), requestsPastTheEnd: pastTheEnd.count)
    }

    /// Items per second of a sync of a list without latency into a new file and into a new
    /// PostgreSQL database: the median of three rounds, the two alternating in each.
    private static func writeRates(
        slippers: String, server: PostgresServer, directory: URL, progress: Progress
    ) async throws -> (items: Int, sqlite: Double, postgres: Double) {
        let items = 20_000
        let fixture = FixtureServer(configuration: .init(itemCount: items, pageSize: pageSize))
        try await fixture.start()
        var rates: [[Double]] = [[], []]
        for round in 0..<3 {
            let targets = [
                directory.appendingPathComponent("rate-\(round).sqlite").path,
                server.url(database: try await server.makeDatabase()),
            ]
            for (index, target) in targets.enumerated() {
                let clock = ContinuousClock()
                let start = clock.now
                try await runToEnd(
                    slippers, ["sync", fixture.url(.page).absoluteString, "--db", target, "--concurrency", "1"],
                    directory: directory)
                let seconds = start.duration(to: clock.now).microseconds / 1e6
                rates[index].append(Double(items) / seconds)
            }
        }
        await fixture.stop()
        let (sqlite, postgres) = (rates[0].sorted()[1], rates[1].sorted()[1])
        progress.report(
            "fleet: \(items) items written at \(Int(sqlite)) items/s into a file, \(Int(postgres)) into PostgreSQL")
        return (items, sqlite, postgres)
    }

    private static func runToEnd(_ slippers: String, _ arguments: [String], directory: URL) async throws {
        let output = directory.appendingPathComponent("run.out").path
        let process = try SpawnedProcess.spawn(
            slippers, arguments, environment: ProcessInfo.processInfo.environment, output: output, error: output)
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw FleetFailure(description: "slippers \(arguments.first ?? "") failed: \(text.suffix(500))")
        }
    }

    private struct FleetFailure: Error, CustomStringConvertible {
        var description: String
    }
}
