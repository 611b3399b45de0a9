import Foundation

/// What every figure function receives: the workload, the measurement settings,
/// the baselines to compare with, and a directory for its own files.
///
/// A figure measures its subject in the same run as the baselines it is
/// compared with, by asking ``baselines`` (which measures each baseline
/// operation once per run and remembers it):
///
/// ```swift
/// let ours = try context.settings.measure { round in … }
/// let fastest = try context.baselines.fastest(.readPage)
/// return Figure(name: "serve a cached page as typed items", measured: ours,
///               against: ("fastest baseline, " + fastest.kind.name, fastest.measurement),
///               target: .ratioAtMost(1.0))
/// ```
///
/// Not `Sendable`: it hands out the single-threaded baselines.
final class FigureContext {
    let workload: Workload
    let settings: MeasurementSettings
    let baselines: BaselineSuite
    let progress: Progress
    /// A temporary directory of this run, removed at its end; each figure uses its own subdirectory.
    let directory: URL
    /// The sizes of the figures that build lists of their own.
    let sizes: FixtureSizes
    /// The path of this benchmark's executable, for figures that measure in a child process.
    let executablePath: String

    init(
        workload: Workload, settings: MeasurementSettings, synchronous: SynchronousMode, directory: URL,
        progress: Progress, sizes: FixtureSizes = .full, executablePath: String = CommandLine.arguments[0]
    ) throws {
        self.sizes = sizes
        self.executablePath = executablePath
        self.workload = workload
        self.settings = settings
        self.directory = directory
        self.progress = progress
        let baselineDirectory = directory.appendingPathComponent("baselines")
        try FileManager.default.createDirectory(at: baselineDirectory, withIntermediateDirectories: true)
        baselines = BaselineSuite(
            workload: workload, settings: settings, synchronous: synchronous, directory: baselineDirectory,
            progress: progress)
    }

    private var workloadStore: WorkloadStore?

    /// Our cache holding the workload, filled on first use (like a baseline) and shared by the figures after.
    ///
    /// Figures that write to it (persist, update) leave it holding the same pages and ids,
    /// so the figures that read it after them measure the same work.
    func store() throws -> WorkloadStore {
        if let workloadStore { return workloadStore }
        let clock = ContinuousClock()
        let start = clock.now
        let store = try WorkloadStore(
            path: try makeDirectory("store").appendingPathComponent("cache.sqlite").path, workload: workload)
        progress.report(
            "filled our store with \(workload.pageCount) pages in \(start.duration(to: clock.now).secondsText)")
        workloadStore = store
        return store
    }

    /// A new, empty directory for one figure's files, e.g. the cache it measures.
    func makeDirectory(_ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
