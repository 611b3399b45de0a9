/// What paging depth costs the floor: `OFFSET` against keyed lookups, page 1 against the last page.
///
/// Rows are fetched without decoding them, so the figures show SQLite's work
/// alone; decoding costs the same at any depth. A last figure shows what the
/// naive user pays at depth, decoding included.
enum DepthFigures {
    static let offsetDepth = FigureGroup(
        id: "baseline-depth",
        summary: "the floor's last page against page 1, with OFFSET and with a keyed query"
    ) { context in
        let floor = try context.baselines.floor()
        let workload = context.workload
        let last = workload.pageCount
        let depth = "page \(last) of \(workload.itemCount)"
        let settings = context.settings

        let offsetFirst = try settings.measure { _ in _ = try floor.readRowsWithOffset(1) }
        let offsetLast = try settings.measure { _ in _ = try floor.readRowsWithOffset(last) }
        let keyedFirst = try settings.measure { _ in _ = try floor.readRows(1) }
        let keyedLast = try settings.measure { _ in _ = try floor.readRows(last) }
        let typedOffsetLast = try settings.measure { _ in _ = try floor.readPageWithOffset(last) }
        let typedKeyedLast = try settings.measure { _ in _ = try floor.readPage(last) }

        return [
            Figure(
                name: "baseline OFFSET rows, \(depth)",
                measured: offsetLast,
                against: ("OFFSET rows, page 1", offsetFirst),
                target: .information
            ),
            Figure(
                name: "baseline keyed rows, \(depth)",
                measured: keyedLast,
                against: ("keyed rows, page 1", keyedFirst),
                target: .information
            ),
            Figure(
                name: "baseline OFFSET typed page, \(depth)",
                measured: typedOffsetLast,
                against: ("keyed typed page, same depth", typedKeyedLast),
                target: .information
            ),
        ]
    }
}
