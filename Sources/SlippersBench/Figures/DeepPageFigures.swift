import Foundation
import Slippers
import SlippersSQLite

/// Our cache reads its deepest page as fast as its first.
enum DeepPageFigures {
    static let deepPage = FigureGroup(
        id: "deep-page",
        summary: "ours: read the last page of a large list (page 10 000 of 500 000 items) against page 1"
    ) { context in
        let pageSize = context.workload.pageSize
        let pageCount = context.sizes.deepItems / pageSize
        let key = "GET /deep"
        let clock = ContinuousClock()
        let start = clock.now
        let store = try SQLiteCache(path: try context.makeDirectory("deep").appendingPathComponent("cache.sqlite").path)
        let repository = Repository<BenchItem>(cache: store)
        try GeneratedList.fill(
            repository, key: key, pageCount: pageCount, pageSize: pageSize, progress: context.progress)
        context.progress.report(
            "filled a store with \(pageCount) pages in \(start.duration(to: clock.now).secondsText)")

        let last = pageCount - 1
        // Interleaved round by round, so that page 1 and the last page share the machine's conditions.
        func readTyped(_ index: Int) throws {
            let items = try repository.page(at: index, in: key)
            precondition(items?.count == pageSize, "our store returned a short page")
        }
        func readRows(_ index: Int) throws {
            let page = try store.page(at: index, in: key)
            precondition(page?.items.count == pageSize, "our store returned a short page")
        }
        let typed = try context.settings.measureInterleaved([{ _ in try readTyped(0) }, { _ in try readTyped(last) }])
        let rows = try context.settings.measureInterleaved([{ _ in try readRows(0) }, { _ in try readRows(last) }])
        let depth = "page \(pageCount) of \(pageCount * pageSize) items"
        return [
            Figure(
                name: "read \(depth) as typed items",
                measured: typed[1],
                against: ("page 1, typed", typed[0]),
                target: .ratioAtMost(1.2)),
            Figure(
                name: "read \(depth), rows only (store.page)",
                measured: rows[1],
                against: ("page 1, rows only", rows[0]),
                target: .ratioAtMost(1.2)),
        ]
    }
}
