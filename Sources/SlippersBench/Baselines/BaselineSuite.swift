import Foundation
import Slippers

/// The three baselines over one workload, filled and measured on first use, then remembered.
///
/// Figures ask the suite for what they compare with (``measurement(_:of:)``,
/// ``fastest(_:)``, ``measureAlongside(_:_:)``); a baseline is only filled,
/// and an operation only measured, when some figure needs it, so `--only` runs
/// no more than it reports. The three baselines of an operation are measured
/// interleaved, round by round, so that their ratios share the machine's conditions.
///
/// Not `Sendable`: it owns the baselines, which are single-threaded.
final class BaselineSuite {
    let workload: Workload
    let settings: MeasurementSettings
    /// The durability of the SQLite baselines' commits; a cache compared with them uses the same.
    let synchronous: SynchronousMode
    private let directory: URL
    private let progress: Progress
    private var baselines: [BaselineKind: any Baseline] = [:]
    private var measurements: [BaselineOperation: [BaselineKind: Measurement]] = [:]

    /// A suite whose baselines keep their files in `directory`.
    init(
        workload: Workload, settings: MeasurementSettings, synchronous: SynchronousMode, directory: URL,
        progress: Progress
    ) {
        self.workload = workload
        self.settings = settings
        self.synchronous = synchronous
        self.directory = directory
        self.progress = progress
    }

    /// The baseline `kind`, holding every page of the workload.
    func baseline(_ kind: BaselineKind) throws -> any Baseline {
        if let baseline = baselines[kind] { return baseline }
        let clock = ContinuousClock()
        let start = clock.now
        let baseline = try kind.make(in: directory, synchronous: synchronous)
        for page in workload.pageNumbers {
            try baseline.persist(page: page, items: workload.items(page: page))
        }
        progress.report(
            "filled \(kind.name) with \(workload.pageCount) pages in \(start.duration(to: clock.now).secondsText)")
        baselines[kind] = baseline
        return baseline
    }

    /// The floor baseline with its extra queries (rows without decoding, `OFFSET` paging).
    func floor() throws -> RawSQLiteBaseline {
        guard let floor = try baseline(.rawSQLite) as? RawSQLiteBaseline else {
            preconditionFailure("BaselineKind.rawSQLite makes a RawSQLiteBaseline")
        }
        return floor
    }

    /// The timings of `operation` on every baseline, measured once per run, interleaved round by round.
    func measurements(_ operation: BaselineOperation) throws -> [BaselineKind: Measurement] {
        if let measurements = measurements[operation] { return measurements }
        let kinds = BaselineKind.allCases
        let bodies = try kinds.map { try body(for: operation, on: baseline($0)) }
        let measured = Dictionary(uniqueKeysWithValues: zip(kinds, try settings.measureInterleaved(bodies)))
        measurements[operation] = measured
        return measured
    }

    /// The timings of `operation` on baseline `kind` (see ``measurements(_:)``).
    func measurement(_ operation: BaselineOperation, of kind: BaselineKind) throws -> Measurement {
        try measurements(operation)[kind]!
    }

    /// The baseline with the lowest median for `operation`, and its timings.
    func fastest(_ operation: BaselineOperation) throws -> (kind: BaselineKind, measurement: Measurement) {
        Self.fastest(in: try measurements(operation))
    }

    /// Times `subject` interleaved with `operation` on every baseline, round by round, in the same
    /// rounds and on the same pages (round `r` is page ``Workload/page(forRound:)``).
    ///
    /// A figure of ours uses this so that it and its baselines share the machine's conditions; its
    /// baseline values are then fresh ones, not the remembered ``measurements(_:)``.
    func measureAlongside(
        _ operation: BaselineOperation,
        _ subject: @escaping (_ round: Int) throws -> Void
    ) throws -> (subject: Measurement, baselines: [BaselineKind: Measurement]) {
        let kinds = BaselineKind.allCases
        let bodies = try [subject] + kinds.map { try body(for: operation, on: baseline($0)) }
        let measured = try settings.measureInterleaved(bodies)
        return (measured[0], Dictionary(uniqueKeysWithValues: zip(kinds, measured.dropFirst())))
    }

    /// The baseline with the lowest median among `measurements`.
    static func fastest(in measurements: [BaselineKind: Measurement]) -> (kind: BaselineKind, measurement: Measurement)
    {
        let kind = BaselineKind.allCases.filter { measurements[$0] != nil }.min {
            measurements[$0]!.median < measurements[$1]!.median
        }!
        return (kind, measurements[kind]!)
    }

    /// The operation as a timed body: its inputs for every round are made beforehand, so the
    /// timed region holds the baseline's work only.
    private func body(for operation: BaselineOperation, on baseline: any Baseline) throws -> (Int) throws -> Void {
        let pages = settings.roundIndexes.map(workload.page(forRound:))
        let pageSize = workload.pageSize
        switch operation {
        case .readPage:
            return { round in
                let items = try baseline.readPage(pages[round])
                // Checked inside the timed region (a few nanoseconds) so a broken baseline cannot look fast.
                precondition(items.count == pageSize, "A baseline returned a short page")
            }
        case .persistPage:
            let inputs = pages.map(workload.items(page:))
            return { round in try baseline.persist(page: pages[round], items: inputs[round]) }
        case .persistFetchedPage:
            let responses = try pages.map(workload.serverResponse(page:))
            return { round in
                let response = try JsonProvider.decode(ServerResponse.self, from: responses[round])
                try baseline.persist(page: pages[round], items: response.results)
            }
        case .updateItem:
            // A different item each round, with a new score, as an edit made elsewhere would arrive.
            let updates = pages.enumerated().map { round, page in
                var item = workload.items(page: page)[round % pageSize]
                item.score = 1_000_000 + round
                return item
            }
            return { round in try baseline.updateItem(updates[round], inPage: pages[round]) }
        }
    }
}
