import ArgumentParser
import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage

/// The child process of the cold-start figure: opens a cache file and decodes its first page, once.
///
/// Hidden from help: the benchmark runs it, in a new process each time, so
/// that nothing (SQLite's page cache, GRDB's connections, Foundation's decoder
/// state) survives from an earlier open. It prints one JSON object on
/// standard output: ``Outcome``.
struct ColdStartProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cold-start-probe",
        abstract: "Open a cache file and decode its first cached page, timed from inside the process.",
        shouldDisplay: false
    )

    /// What the probe measured, from the start of the open.
    struct Outcome: Codable {
        /// Until `SQLiteCache(path:)` returned: checks, connections, migrations.
        var openMicroseconds: Double
        /// Until the first page's items were decoded (the open included).
        var firstPageMicroseconds: Double
        /// Items published: the first page's, or those of the pager's first snapshot (its window, the first page).
        var items: Int
    }

    @Option(help: "The cache file.")
    var path: String

    @Option(help: "The list key.")
    var key: String

    @Flag(help: "Publish the first cache snapshot through a cache-only Pager instead of Repository.page.")
    var throughPager = false

    func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let store = try SQLiteCache(path: path)
        let opened = clock.now
        let items: [BenchItem]
        if throughPager {
            let key = key
            items = try Blocking.run {
                let pager = Pager<BenchItem>(
                    cache: store, source: NotModifiedSource(),
                    list: ListDescriptor(key: key, of: BenchItem.self),
                    configuration: PagerConfiguration(policy: .cacheOnly))
                await pager.start()
                return await pager.state.items
            }
        } else {
            items = try Repository<BenchItem>(cache: store).page(at: 0, in: key) ?? []
        }
        let decoded = clock.now
        let outcome = Outcome(
            openMicroseconds: start.duration(to: opened).microseconds,
            firstPageMicroseconds: start.duration(to: decoded).microseconds,
            items: items.count)
        print(String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self))
    }
}
