import Foundation
import LocalAPI

/// Syncing a whole list from a local HTTP API keeps memory flat.
///
/// The fixture server runs in this process; each sync runs in a child process
/// (``SyncProbe``), so its peak resident set size is its own: a new process that
/// opens a new cache and pages the whole API into it through `ListSync`
/// and the HTTP page source. Two sizes, ten times apart, show whether memory
/// depends on the list's size.
enum SyncFigures {
    static let sync = FigureGroup(
        id: "sync",
        summary:
            "ours: sync 10 000 and 100 000 items from the local fixture API (child processes): peak RSS, store share"
    ) { context in
        let (small, large) = context.sizes.syncItems
        let directory = try context.makeDirectory("sync")
        let pageSize = context.workload.pageSize
        var outcomes: [Int: SyncProbe.Outcome] = [:]
        for itemCount in [small, large] {
            let server = FixtureServer(configuration: .init(itemCount: itemCount, pageSize: pageSize))
            try Blocking.run { try await server.start() }
            defer { Blocking.runIgnoringErrors { await server.stop() } }
            let child = try ChildProcess.run(
                context.executablePath,
                [
                    "sync-probe", "--url", server.url(.page).absoluteString, "--page-size", String(pageSize),
                    "--path", directory.appendingPathComponent("sync-\(itemCount).sqlite").path,
                ],
                in: directory)
            let outcome = try JSONDecoder().decode(SyncProbe.Outcome.self, from: child.stdout)
            precondition(outcome.items == itemCount, "the sync fetched \(outcome.items) of \(itemCount) items")
            context.progress.report(
                "synced \(itemCount) items in \(String(format: "%.2f", outcome.wallMicroseconds / 1e6)) s")
            outcomes[itemCount] = outcome
        }
        let smallRun = outcomes[small]!
        let largeRun = outcomes[large]!
        func megabytes(_ outcome: SyncProbe.Outcome) -> Double { Double(outcome.peakBytes) / 1_048_576 }
        return [
            Figure(
                name: "sync \(large) items: peak RSS of the syncing process",
                unit: .megabytes, value: megabytes(largeRun), baseline: nil, baselineValue: nil,
                target: .valueAtMost(100)),
            Figure(
                name: "sync: peak RSS, \(large) items against \(small) (independent of N)",
                unit: .megabytes, value: megabytes(largeRun), baseline: "sync \(small) items",
                baselineValue: megabytes(smallRun), target: .ratioAtMost(1.1)),
            Figure(
                name: "sync \(large) items: share of wall time in store writes (savePage)",
                unit: .times, value: largeRun.storeMicroseconds / largeRun.wallMicroseconds, baseline: nil,
                baselineValue: nil, target: .information),
            Figure(
                name: "sync \(large) items: CPU of the syncing process per 1 000 items (user + system)",
                unit: .milliseconds, value: largeRun.cpuMicroseconds / 1e3 / (Double(large) / 1_000), baseline: nil,
                baselineValue: nil, target: .valueAtMost(17)),
            Figure(
                name: "sync \(large) items: wall time",
                unit: .milliseconds, value: largeRun.wallMicroseconds / 1e3, baseline: nil, baselineValue: nil,
                target: .information),
            Figure(
                name: "sync \(small) items: share of wall time in store writes (savePage)",
                unit: .times, value: smallRun.storeMicroseconds / smallRun.wallMicroseconds, baseline: nil,
                baselineValue: nil, target: .information),
        ]
    }
}
