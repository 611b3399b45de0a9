import Foundation
import Slippers

/// The three baselines over one workload, filled and measured on first use, then remembered.
///
/// Figures ask the suite for what they compare with (``measurement(_:of:)``,
/// ``fastest(_:)``); a baseline is only filled, and an operation only
/// measured, when some figure needs it, so `--only` runs no more than it reports.
/// Every figure of a run therefore compares with the same baseline numbers.
///
/// Not `Sendable`: it owns the baselines, which are single-threaded.
final class BaselineSuite {
    let workload: Workload
    let settings: MeasurementSettings
    private let directory: URL
    private let progress: Progress
    private var baselines: [BaselineKind: any Baseline] = [:]
    private var measurements: [BaselineKind: [BaselineOperation: Measurement]] = [:]

    /// A suite whose baselines keep their files in `directory`.
    init(workload: Workload, settings: MeasurementSettings, directory: URL, progress: Progress) {
        self.workload = workload
        self.settings = settings
        self.directory = directory
        self.progress = progress
    }

    /// The baseline `kind`, holding every page of the workload.
    func baseline(_ kind: BaselineKind) throws -> any Baseline {
        if let baseline = baselines[kind] { return baseline }
        let clock = ContinuousClock()
        let start = clock.now
        let baseline = try kind.make(in: directory)
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

    /// The timings of `operation` on baseline `kind`, measured once per run.
    func measurement(_ operation: BaselineOperation, of kind: BaselineKind) throws -> Measurement {
        if let measurement = measurements[kind]?[operation] { return measurement }
        let measurement = try measure(operation, on: baseline(kind))
        measurements[kind, default: [:]][operation] = measurement
        return measurement
    }

    /// The baseline with the lowest median for `operation`, and its timings.
    func fastest(_ operation: BaselineOperation) throws -> (kind: BaselineKind, measurement: Measurement) {
        let all = try BaselineKind.allCases.map { (kind: $0, measurement: try measurement(operation, of: $0)) }
        return all.min { $0.measurement.median < $1.measurement.median }!
    }

    private func measure(_ operation: BaselineOperation, on baseline: any Baseline) throws -> Measurement {
        let roundCount = settings.warmup + settings.rounds
        let pages = (0..<roundCount).map(workload.page(forRound:))
        let pageSize = workload.pageSize
        switch operation {
        case .readPage:
            return try settings.measure { round in
                let items = try baseline.readPage(pages[round])
                // Checked inside the timed region (a few nanoseconds) so a broken baseline cannot look fast.
                precondition(items.count == pageSize, "A baseline returned a short page")
            }
        case .persistPage:
            let inputs = pages.map(workload.items(page:))
            return try settings.measure { round in
                try baseline.persist(page: pages[round], items: inputs[round])
            }
        case .persistFetchedPage:
            let responses = try pages.map(workload.serverResponse(page:))
            return try settings.measure { round in
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
            return try settings.measure { round in
                try baseline.updateItem(updates[round], inPage: pages[round])
            }
        }
    }
}
