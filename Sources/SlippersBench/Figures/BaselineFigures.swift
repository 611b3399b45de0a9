/// The baselines on their own: each baseline's time for each operation, as a ratio to the fastest.
///
/// These are information, not targets: they show what our figures are
/// compared with, measured in the same run.
enum BaselineFigures {
    static let readPage = FigureGroup(
        id: "baseline-read-page",
        summary: "read a cached page of 50 as typed items, each baseline; and the floor's rows alone"
    ) { context in
        var figures = try comparedWithFastest(.readPage, in: context)
        // How much of a page read is JSON: the floor's rows fetched without decoding them, in the
        // same rounds and on the same pages as the decoded reads, as a figure of ours would be.
        let floor = try context.baselines.floor()
        let workload = context.workload
        let rowsOnly = try context.baselines.measureAlongside(.readPage) { round in
            _ = try floor.readRows(workload.page(forRound: round))
        }
        figures.append(
            Figure(
                name: "baseline rows without decoding: \(BaselineKind.rawSQLite.name)",
                measured: rowsOnly.subject,
                against: ("\(BaselineKind.rawSQLite.name), decoded", rowsOnly.baselines[.rawSQLite]!),
                target: .information
            ))
        return figures
    }

    static let persistPage = FigureGroup(
        id: "baseline-persist-page",
        summary: "store a page of 50 typed items, each baseline"
    ) { context in
        try comparedWithFastest(.persistPage, in: context)
    }

    static let persistFetchedPage = FigureGroup(
        id: "baseline-persist-fetched-page",
        summary: "store a page from the server's response bytes (decode, then store), each baseline"
    ) { context in
        try comparedWithFastest(.persistFetchedPage, in: context)
    }

    static let updateItem = FigureGroup(
        id: "baseline-update-item",
        summary: "replace one item of a cached page, each baseline, against (c), the baseline our target names"
    ) { context in
        let reference = try context.baselines.measurement(.updateItem, of: .rowPerPage)
        return try BaselineKind.allCases.map { kind in
            Figure(
                name: "baseline \(BaselineOperation.updateItem.name): \(kind.name)",
                measured: try context.baselines.measurement(.updateItem, of: kind),
                against: (BaselineKind.rowPerPage.name, reference),
                target: .information
            )
        }
    }

    /// One figure per baseline for `operation`, each against the fastest of the three.
    private static func comparedWithFastest(_ operation: BaselineOperation, in context: FigureContext) throws
        -> [Figure]
    {
        let fastest = try context.baselines.fastest(operation)
        return try BaselineKind.allCases.map { kind in
            Figure(
                name: "baseline \(operation.name): \(kind.name)",
                measured: try context.baselines.measurement(operation, of: kind),
                against: ("fastest, \(fastest.kind.name)", fastest.measurement),
                target: .information
            )
        }
    }
}
