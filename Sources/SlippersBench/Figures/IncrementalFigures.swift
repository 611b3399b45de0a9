import Foundation
import LocalAPI
import SlippersKit

/// An incremental run costs what changed, not the list: requests and bytes against a full walk.
///
/// A list of 50 000 items, 100 a page, with `updated_at` and `updated_since` (the fixture's
/// ``UpdatedList``), runs in this process. A first run walks it whole and takes its watermark;
/// then 1 % of its items are edited, spread over the whole list, and a second run asks for what
/// changed since the watermark less the default lookback (5 minutes, which brings back the
/// items updated in the 5 minutes before the watermark as well). The counts are the server's.
enum IncrementalFigures {
    static let incremental = FigureGroup(
        id: "incremental",
        summary: "ours: incremental run after 1% of a 50 000-item list changed, requests and bytes against a full walk"
    ) { context in
        let itemCount = context.sizes.incrementalItems
        let changed = itemCount / 100
        let list = UpdatedList(count: itemCount, pageSize: 100)
        let server = FixtureServer()
        try Blocking.run { try await server.start() }
        defer { Blocking.runIgnoringErrors { await server.stop() } }
        list.install(on: server)
        let url = server.url(path: "/updated")
        let path = try context.makeDirectory("incremental").appendingPathComponent("cache.sqlite").path
        let store = try SQLiteCache(path: path)
        guard let configuration = ServerConfiguration(baseURL: url) else { throw IncrementalFigureError.noHost }
        let client = APIClient(configuration: configuration)
        func run() throws -> IncrementalSync<PrimedPageSource>.Outcome {
            try Blocking.run {
                let plan = try await SyncPlan.make(storage: store, client: client, url: url)
                let sync = plan.incrementalSync(
                    storage: store, settings: .init(field: "updated_at"), sinceParameter: "updated_since")
                return try await sync.run()
            }
        }
        let walk = try run()
        let full = list.served
        precondition(walk.isComplete && walk.newItems == itemCount, "the full walk synced \(walk.newItems) items")
        context.progress.report("walked \(itemCount) items in \(full.pages) pages (\(full.bytes) bytes)")

        let ids = Array(stride(from: 1, through: itemCount, by: itemCount / changed).prefix(changed))
        list.edit(ids, at: UpdatedList.changeTime)
        list.resetServed()
        let clock = ContinuousClock()
        let start = clock.now
        let changes = try run()
        let elapsed = start.duration(to: clock.now)
        let incremental = list.served
        precondition(changes.isComplete && changes.newItems == 0, "the incremental run merged \(changes)")
        let stored = try store.item(type: store.lists()[0].itemType, key: .integer(ids[changed / 2]))
        precondition(
            stored.map { String(decoding: $0.item.json, as: UTF8.self).contains("\"version\":2") } == true,
            "an edited item was not merged")
        context.progress.report(
            "incremental run: \(changes.updatedItems) items in \(incremental.pages) pages (\(incremental.bytes) bytes)")
        return [
            Figure(
                name: "incremental run, 1% of \(itemCount) changed: requests against a full walk",
                unit: .requests, value: Double(incremental.pages), baseline: "full walk",
                baselineValue: Double(full.pages), target: .ratioAtMost(0.03)),
            Figure(
                name: "incremental run, 1% of \(itemCount) changed: bytes against a full walk",
                unit: .megabytes, value: Double(incremental.bytes) / 1_048_576, baseline: "full walk",
                baselineValue: Double(full.bytes) / 1_048_576, target: .ratioAtMost(0.03)),
            Figure(
                name: "incremental run, 1% of \(itemCount) changed: items read (changed + lookback)",
                unit: .rows, value: Double(changes.updatedItems), baseline: nil, baselineValue: nil,
                target: .information),
            Figure(
                name: "incremental run, 1% of \(itemCount) changed: wall time",
                unit: .milliseconds, value: elapsed.milliseconds, baseline: nil, baselineValue: nil,
                target: .information),
        ]
    }
}

/// Why the incremental figure could not run.
enum IncrementalFigureError: Error {
    /// The fixture server's URL has no host.
    case noHost
}
