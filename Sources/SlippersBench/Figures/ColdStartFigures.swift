import Foundation

/// A new process opens a large cache and publishes its first page.
///
/// Each round runs ``ColdStartProbe`` in a new process, which times itself from
/// just before `SQLiteCache(path:)` to the first page's items decoded; the
/// process's own start (loading the binary and the Swift runtime) is reported
/// apart, as the child's whole life seen from the parent. Rounds alternate
/// between a file whose pages the kernel still caches (the app relaunched) and
/// one whose cached pages were dropped first (after a reboot, or a long time).
/// Each kernel-cached round also runs the probe through a cache-only
/// `Pager`, whose first snapshot is its window: the first cached page.
enum ColdStartFigures {
    static let coldStart = FigureGroup(
        id: "cold-start",
        summary: "ours: a new process opens a cache of 1 000 000 items and decodes its first page (child processes)"
    ) { context in
        let itemCount = context.sizes.coldStartItems
        let directory = try context.makeDirectory("cold-start")
        let path = directory.appendingPathComponent("cache.sqlite").path
        let clock = ContinuousClock()
        let start = clock.now
        try ColdStartFixture.build(
            path: path, itemCount: itemCount, pageSize: context.workload.pageSize, progress: context.progress)
        context.progress.report(
            "wrote a cache of \(itemCount) items in \(start.duration(to: clock.now).secondsText)")

        // Fewer rounds than in-process figures: each round starts a process and, half the time,
        // reads from the disk; the medians of 20 stay well apart from the target or not.
        let rounds = min(context.settings.rounds, 20)
        var warm: [ColdStartProbe.Outcome] = []
        var dropped: [ColdStartProbe.Outcome] = []
        var warmLives: [Duration] = []
        var throughPager: [ColdStartProbe.Outcome] = []
        var dropWorked = true
        for round in 0..<(rounds * 2 + 2) {
            let dropsCache = round % 2 == 1
            if dropsCache {
                for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
                    dropWorked = FileCache.drop(file) && dropWorked
                }
            }
            let probe = ["cold-start-probe", "--path", path, "--key", ColdStartFixture.listKey]
            let child = try ChildProcess.run(context.executablePath, probe, in: directory)
            let outcome = try JSONDecoder().decode(ColdStartProbe.Outcome.self, from: child.stdout)
            precondition(outcome.items == context.workload.pageSize, "the probe decoded a short first page")
            // The pager's first snapshot is its window, the first page: the same items, the file still warm.
            var pagerOutcome: ColdStartProbe.Outcome?
            if !dropsCache {
                let pagerChild = try ChildProcess.run(
                    context.executablePath, probe + ["--through-pager"], in: directory)
                let decoded = try JSONDecoder().decode(ColdStartProbe.Outcome.self, from: pagerChild.stdout)
                precondition(decoded.items == context.workload.pageSize, "the pager published a short first page")
                pagerOutcome = decoded
            }
            // The first pair warms the binary and the file up and is not counted.
            guard round >= 2 else { continue }
            if dropsCache {
                dropped.append(outcome)
            } else {
                warm.append(outcome)
                warmLives.append(child.wallTime)
                if let pagerOutcome { throughPager.append(pagerOutcome) }
            }
        }
        func milliseconds(_ outcomes: [ColdStartProbe.Outcome], _ value: (ColdStartProbe.Outcome) -> Double)
            -> Measurement
        {
            Measurement(samples: outcomes.map { .microseconds(value($0)) })
        }
        let size = "\(itemCount) items"
        let droppedLabel = dropWorked ? "file's pages dropped from the kernel's cache" : "(drop REFUSED: warm)"
        return [
            Figure(
                milliseconds: "cold start: open a cache of \(size), first page decoded; file cached by the kernel",
                measured: milliseconds(warm, \.firstPageMicroseconds), target: .valueAtMost(50)),
            Figure(
                milliseconds: "cold start: open a cache of \(size), first page decoded; \(droppedLabel)",
                measured: milliseconds(dropped, \.firstPageMicroseconds), target: .valueAtMost(50)),
            Figure(
                milliseconds: "cold start through Pager (cache-only): open a cache of \(size), first snapshot "
                    + "(its window: the first page) decoded; file cached by the kernel",
                measured: milliseconds(throughPager, \.firstPageMicroseconds), target: .valueAtMost(50)),
            Figure(
                milliseconds: "cold start: of which open (checks, connections, migrations), kernel-cached",
                measured: milliseconds(warm, \.openMicroseconds), target: .information),
            Figure(
                milliseconds: "cold start: the whole child process seen from its parent (exec to exit)",
                measured: Measurement(samples: warmLives), target: .information),
        ]
    }
}
