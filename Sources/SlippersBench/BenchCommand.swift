import ArgumentParser
import Foundation

/// The `slippers-bench` command: measures Slippers against the baselines a user would write, in one run.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slippers-bench",
        abstract: "Measure the Slippers cache against hand-written baselines, on this machine, in one run.",
        discussion: """
            Every figure is the median of repeated rounds and is reported as a ratio to a baseline \
            measured in the same run. Build in release mode: swift run -c release slippers-bench. \
            Progress goes to standard error; the table, or the JSON report with --json, to standard output.
            """,
        subcommands: [ColdStartProbe.self, SyncProbe.self, SequentialClientProbe.self, PushProbe.self]
    )

    @Flag(help: "Print the JSON report ({\"machine\": …, \"figures\": […]}) instead of the table.")
    var json = false

    @Flag(
        help: """
            A smoke run: \(Self.quickItems) items, \(Self.quickRounds) rounds, and a tenth of the full \
            fixture sizes (deep list, cold-start file, revalidated pages).
            """)
    var quick = false

    @Option(help: "Timed rounds per measurement (default \(Self.fullRounds), or \(Self.quickRounds) with --quick).")
    var rounds: Int?

    @Option(
        help: "Items in the list, in pages of 50 (default \(Self.fullItems), or \(Self.quickItems) with --quick)."
    )
    var items: Int?

    @Option(help: "Run only the figure groups whose name contains this text; repeatable. See --list.")
    var only: [String] = []

    @Option(
        help: """
            PRAGMA synchronous of the SQLite baselines (and of our store, once measured): normal syncs \
            at checkpoints only, full at every commit, as durable as the file baseline's fsync.
            """)
    var synchronous: SynchronousMode = .normal

    @Flag(help: "List the figure groups and exit.")
    var list = false

    static let fullItems = 100_000
    static let fullRounds = 100
    static let quickItems = 10_000
    static let quickRounds = 20

    func validate() throws {
        if let rounds, rounds < 1 {
            throw ValidationError("--rounds must be at least 1.")
        }
        if let items, items < 1_000 {
            throw ValidationError("--items must be at least 1000 (20 pages), so that depth means something.")
        }
        if !only.isEmpty && FigureCatalog.groups(matching: only).isEmpty {
            throw ValidationError("No figure group matches --only \(only.joined(separator: ", ")); see --list.")
        }
    }

    func run() throws {
        if list {
            for group in FigureCatalog.groups {
                print("\(group.id): \(group.summary)")
            }
            return
        }
        let roundCount = rounds ?? (quick ? Self.quickRounds : Self.fullRounds)
        let settings = MeasurementSettings(rounds: roundCount, warmup: max(2, roundCount / 10))
        let itemCount = items ?? (quick ? Self.quickItems : Self.fullItems)
        let progress = Progress()

        #if DEBUG
            progress.report("this is a debug build: numbers mean nothing; use swift run -c release slippers-bench")
        #endif
        let clock = ContinuousClock()
        let start = clock.now
        progress.report("making \(itemCount) items")
        let workload = Workload(itemCount: itemCount)

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("slippers-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let context = try FigureContext(
            workload: workload, settings: settings, synchronous: synchronous, directory: directory,
            progress: progress, sizes: quick ? .quick : .full)
        var figures: [Figure] = []
        for group in FigureCatalog.groups(matching: only) {
            progress.report("measuring \(group.id)")
            figures += try group.produce(context)
        }

        let report = Report(machine: .current(), figures: figures)
        let notes = [
            "\(workload.itemCount) items in pages of \(workload.pageSize); medians of \(settings.rounds) rounds "
                + "after \(settings.warmup) warm-up rounds; ratio = value / baseline value; "
                + "run took \(start.duration(to: clock.now).secondsText).",
            "SQLite baselines: WAL, synchronous = \(synchronous.sql), raw C API; "
                + "file baseline: Foundation's atomic Data.write, which fsyncs every page on Linux; "
                + "our store: WAL, synchronous = NORMAL (always)"
                + (synchronous == .normal ? "." : ": its write figures are LESS durable than the baselines'."),
            "peak RSS of this process: "
                + (PeakMemory.peakBytes().map { "\($0 / 1_048_576) MB" } ?? "unknown (no /proc/self/status)")
                // Checked last, since it forgets the peak just reported.
                + "; peak reset through /proc/self/clear_refs: "
                + (PeakMemory.resetPeak() ? "works here" : "refused here"),
        ]
        if json {
            print(try report.json())
            notes.forEach(progress.report)
        } else {
            print(report.table(notes: notes))
        }
    }
}
