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

        // Measured one after the other, not interleaved: a deep OFFSET scan walks the whole table
        // and would evict, from SQLite's page cache, the pages that the other reads find there.
        let offsetFirst = try settings.measure { _ in _ = try floor.readRowsWithOffset(1) }
        let offsetLast = try settings.measure { _ in _ = try floor.readRowsWithOffset(last) }
        let keyed = try settings.measureInterleaved([
            { _ in _ = try floor.readRows(1) },
            { _ in _ = try floor.readRows(last) },
        ])
        let (keyedFirst, keyedLast) = (keyed[0], keyed[1])
        let typedKeyedLast = try settings.measure { _ in _ = try floor.readPage(last) }
        let typedOffsetLast = try settings.measure { _ in _ = try floor.readPageWithOffset(last) }

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
