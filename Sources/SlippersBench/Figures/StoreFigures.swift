import Foundation
import Slippers
import SlippersNetworking
import SlippersSQLite

/// Our cache against the baselines, each timed in the same rounds and
/// on the same pages as the three baselines (``BaselineSuite/measureAlongside(_:_:)``).
enum StoreFigures {
    static let readPage = FigureGroup(
        id: "read-page",
        summary: "ours: serve a cached page of 50 as typed items (Repository.page), against the fastest baseline"
    ) { context in
        let store = try context.store()
        let pageSize = context.workload.pageSize
        let measured = try context.baselines.measureAlongside(.readPage) { round in
            let page = context.workload.page(forRound: round)
            let items = try store.repository.page(at: page - 1, in: WorkloadStore.listKey)
            precondition(items?.count == pageSize, "our store returned a short page")
        }
        // Where our time goes: the same page's rows from our cache without decoding them,
        // against the floor's rows, in the same rounds.
        let floor = try context.baselines.floor()
        let rows = try context.settings.measureInterleaved([
            { round in
                let page = context.workload.page(forRound: round)
                let stored = try store.store.page(at: page - 1, in: WorkloadStore.listKey)
                precondition(stored?.items.count == pageSize, "our store returned a short page")
            },
            { round in _ = try floor.readRows(context.workload.page(forRound: round)) },
        ])
        return [
            againstFastest("serve a cached page as typed items", measured, target: .ratioAtMost(1.0)),
            Figure(
                name: "our rows without decoding (SQLiteCache.page)",
                measured: rows[0],
                against: ("\(BaselineKind.rawSQLite.name), rows without decoding", rows[1]),
                target: .information),
        ]
    }

    static let firstItems = FigureGroup(
        id: "first-items",
        summary:
            "ours: the first 10 items of a cached page usable (Repository.page(at:in:positions:): only their rows read and decoded), against the fastest baseline's whole page"
    ) { context in
        let store = try context.store()
        let measured = try context.baselines.measureAlongside(.readPage) { round in
            let page = context.workload.page(forRound: round)
            let first = try store.repository.page(at: page - 1, in: WorkloadStore.listKey, positions: 0..<10)
            precondition(first?.count == 10, "our store returned a short prefix")
        }
        return [
            againstFastest(
                "first 10 items of a cached page usable", measured, label: "fastest baseline's whole page",
                target: .ratioAtMost(0.3))
        ]
    }

    static let persistFetchedPage = FigureGroup(
        id: "persist-fetched-page",
        summary:
            "ours: persist a page from the server's response bytes (JSONScanner slices, savePage), against the fastest baseline"
    ) { context in
        let store = try context.store()
        let workload = context.workload
        let pages = context.settings.roundIndexes.map(workload.page(forRound:))
        let responses = try pages.map(workload.serverResponse(page:))
        // Saving page index 0 starts a new generation, after which a page saved out of order is
        // refused; the rare round on workload page 1 (round 0, a warm-up) saves into a list of its own.
        let refreshed = store.repository.list("GET /items?refreshed")
        let measured = try context.baselines.measureAlongside(.persistFetchedPage) { round in
            let page = pages[round]
            // The HTTP page source's own slicing: each item's bytes as the server sent them, and its id.
            let items = try JSONScanner(responses[round]).rawItems(at: ["results"])
            let next = page < workload.pageCount ? PageToken(rawValue: String(page + 1)) : nil
            try store.store.savePage(
                Page(items: items, token: WorkloadStore.token(page), nextToken: next, total: workload.itemCount),
                at: page - 1, in: page == 1 ? refreshed : store.list)
        }
        return [
            againstFastest(
                "persist a fetched page (JSONScanner slices the response, savePage)", measured,
                target: .ratioAtMost(1.0))
        ]
    }

    static let updateItem = FigureGroup(
        id: "update-item",
        summary: "ours: update one item that appears in a cached page (Repository.save), against baseline (c)"
    ) { context in
        let store = try context.store()
        let workload = context.workload
        // The same edits the baselines make: item `round % pageSize` of the round's page, with a new score.
        let updates = context.settings.roundIndexes.map { round in
            var item = workload.items(page: workload.page(forRound: round))[round % workload.pageSize]
            item.score = 1_000_000 + round
            return item
        }
        let measured = try context.baselines.measureAlongside(.updateItem) { round in
            try store.repository.save(updates[round])
        }
        return [
            Figure(
                name: "update one item of a cached page",
                measured: measured.subject,
                against: (BaselineKind.rowPerPage.name, measured.baselines[.rowPerPage]!),
                target: .fasterBy(10))
        ]
    }

    /// Our measurement against the fastest of the baselines measured alongside it, named in the figure.
    private static func againstFastest(
        _ name: String, _ measured: (subject: Measurement, baselines: [BaselineKind: Measurement]),
        label: String = "fastest baseline", target: Target
    ) -> Figure {
        let fastest = BaselineSuite.fastest(in: measured.baselines)
        return Figure(
            name: name, measured: measured.subject, against: ("\(label), \(fastest.kind.name)", fastest.measurement),
            target: target)
    }
}
