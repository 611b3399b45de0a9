import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage

/// Revalidating cached pages that the server answers `304 Not Modified` rewrites no item.
///
/// The cache's file gets triggers of the benchmark's own (a table and
/// triggers the cache knows nothing of) that count every insert, update and
/// delete of an `items` row and every update of a `pages` row; the counts
/// are read before and after the revalidations.
enum RevalidationFigures {
    static let notModified = FigureGroup(
        id: "revalidate-304",
        summary: "ours: 2 000 cached pages revalidated as 304 Not Modified; item rows rewritten (counted by triggers)"
    ) { context in
        let pageCount = context.sizes.revalidatedPages
        let pageSize = context.workload.pageSize
        let key = "GET /revalidated"
        let path = try context.makeDirectory("revalidate").appendingPathComponent("cache.sqlite").path
        let store = try SQLiteCache(path: path)
        try GeneratedList.fill(
            Repository<BenchItem>(cache: store), key: key, pageCount: pageCount, pageSize: pageSize,
            progress: context.progress)
        let counter = try WriteCounter(path: path)

        let before = try counter.counts()
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<pageCount {
            try store.markPageNotModified(
                at: index, in: key, validators: PageValidators(etag: "\"v2-\(index)\""))
        }
        let elapsed = start.duration(to: clock.now)
        let after = try counter.counts()
        let itemWrites = after.itemWrites - before.itemWrites
        let pageUpdates = after.pageUpdates - before.pageUpdates

        // The cached pager revalidates the first page only (on start, and on every refresh);
        // it is measured on the same list, answered 304 by a source double.
        let pagerRefreshes = 3
        let pagerStart = clock.now
        try Blocking.run {
            let pager = Pager<BenchItem>(
                cache: store, source: NotModifiedSource(),
                list: ListDescriptor(key: key, of: BenchItem.self))
            await pager.start()
            for _ in 1..<pagerRefreshes { try await pager.refresh() }
        }
        let pagerElapsed = pagerStart.duration(to: clock.now)
        let afterPager = try counter.counts()
        return [
            Figure(
                name:
                    "revalidate through Pager as 304 (start + \(pagerRefreshes - 1) refreshes, first page each): "
                    + "item rows rewritten",
                unit: .rows, value: Double(afterPager.itemWrites - after.itemWrites), baseline: nil,
                baselineValue: nil, target: .valueAtMost(0)),
            Figure(
                name: "revalidate through Pager as 304: page rows updated",
                unit: .rows, value: Double(afterPager.pageUpdates - after.pageUpdates), baseline: nil,
                baselineValue: nil, target: .information),
            Figure(
                name: "revalidate through Pager as 304: time for the \(pagerRefreshes) revalidations, "
                    + "each publishing the window (the first of \(pageCount) pages)",
                unit: .milliseconds, value: pagerElapsed.milliseconds, baseline: nil, baselineValue: nil,
                target: .information),
            Figure(
                name: "revalidate \(pageCount) cached pages as 304 (markPageNotModified): item rows rewritten",
                unit: .rows, value: Double(itemWrites), baseline: nil, baselineValue: nil,
                target: .valueAtMost(0)),
            Figure(
                name: "revalidate \(pageCount) cached pages as 304: page rows updated (expected \(pageCount))",
                unit: .rows, value: Double(pageUpdates), baseline: nil, baselineValue: nil,
                target: .information),
            Figure(
                name: "revalidate \(pageCount) cached pages as 304: time for all of them, one transaction each",
                unit: .milliseconds, value: elapsed.milliseconds, baseline: nil, baselineValue: nil,
                target: .information),
        ]
    }
}

/// Counts writes to a cache's `items` and `pages` tables with triggers, through a connection of its own.
final class WriteCounter {
    private let connection: SQLiteConnection
    private let select: SQLiteStatement

    /// Installs the counting table and triggers in the database at `path`.
    init(path: String) throws {
        connection = try SQLiteConnection(path: path, synchronous: .normal)
        try connection.execute(
            """
            CREATE TABLE bench_writes (name TEXT PRIMARY KEY, count INTEGER NOT NULL);
            INSERT INTO bench_writes VALUES ('items', 0), ('pages', 0);
            CREATE TRIGGER bench_items_insert AFTER INSERT ON items
                BEGIN UPDATE bench_writes SET count = count + 1 WHERE name = 'items'; END;
            CREATE TRIGGER bench_items_update AFTER UPDATE ON items
                BEGIN UPDATE bench_writes SET count = count + 1 WHERE name = 'items'; END;
            CREATE TRIGGER bench_items_delete AFTER DELETE ON items
                BEGIN UPDATE bench_writes SET count = count + 1 WHERE name = 'items'; END;
            CREATE TRIGGER bench_pages_update AFTER UPDATE ON pages
                BEGIN UPDATE bench_writes SET count = count + 1 WHERE name = 'pages'; END;
            """)
        select = try connection.prepare(
            "SELECT (SELECT count FROM bench_writes WHERE name = 'items'), "
                + "(SELECT count FROM bench_writes WHERE name = 'pages')")
    }

    /// The writes counted so far: item rows inserted, updated or deleted; page rows updated.
    func counts() throws -> (itemWrites: Int, pageUpdates: Int) {
        guard try select.step() else { return (0, 0) }
        let counts = (select.integer(at: 0), select.integer(at: 1))
        try select.reset()
        return counts
    }
}
