import ArgumentParser
import Foundation
import Slippers
import SlippersNetworking
import SlippersStore
import Synchronization

/// The child process of the sync figure: pages a whole collection from an HTTP API into a new cache.
///
/// Hidden from help: the benchmark runs it once per collection size, so that
/// the peak resident set size it reports (`VmHWM`, the process's whole life)
/// belongs to one sync alone. It prints one JSON object: ``Outcome``.
struct SyncProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-probe",
        abstract: "Sync a paginated API into a new cache file; report wall time, store time and peak memory.",
        shouldDisplay: false
    )

    /// What the probe measured.
    struct Outcome: Codable {
        /// From the sync's start to its end.
        var wallMicroseconds: Double
        /// The part of it spent in the store, saving pages (`CacheStore.savePage`).
        var storeMicroseconds: Double
        /// Items and pages synced.
        var items: Int
        var pages: Int
        /// The process's peak resident set size, in bytes, over its whole life.
        var peakBytes: UInt64
    }

    @Option(help: "The page-number route of the API, e.g. http://127.0.0.1:PORT/page.")
    var url: String

    @Option(help: "Items per page to ask for.")
    var pageSize: Int = 50

    @Option(help: "The cache file to create.")
    var path: String

    func run() throws {
        guard let url = URL(string: url), let base = URL(string: "/", relativeTo: url)?.absoluteURL,
            let server = ServerConfiguration(baseURL: base)
        else { throw ValidationError("--url must be an http URL") }
        let pageSize = pageSize
        let path = path
        var outcome = try Blocking.run {
            let store = try CacheStore(path: path)
            let client = HTTPClient(configuration: server)
            let http = HTTPPageSource(
                client: client, url: url, style: .pageNumber(pageSize: pageSize, itemsKeyPath: "results"))
            let source = TimedSource(http)
            let sync = CollectionSync(
                store: store, source: source,
                collection: CollectionDescriptor(key: http.collectionKey, itemType: "FixtureItem"))
            let clock = ContinuousClock()
            let start = clock.now
            var storeTime = Duration.zero
            // `onPage` runs right after `savePage` returns, and the last fetch returned right before it:
            // the time between the two is the store's (plus a token check of nanoseconds).
            let progress = try await sync.run { _ in storeTime += source.lastFetchEnd.duration(to: clock.now) }
            return Outcome(
                wallMicroseconds: start.duration(to: clock.now).microseconds,
                storeMicroseconds: storeTime.microseconds, items: progress.itemsFetched,
                pages: progress.pagesFetched, peakBytes: 0)
        }
        outcome.peakBytes = PeakMemory.peakBytes() ?? 0
        print(String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self))
    }
}

/// A page source that remembers when its last fetch returned.
struct TimedSource<Base: PageSource>: PageSource {
    /// The instant, shared by the copies of a source.
    private final class Stamp: Sendable {
        let instant = Mutex(ContinuousClock.now)
    }

    let base: Base
    private let end = Stamp()

    init(_ base: Base) {
        self.base = base
    }

    /// When the last fetch returned.
    var lastFetchEnd: ContinuousClock.Instant { end.instant.withLock { $0 } }

    func fetch(_ request: PageRequest) async throws -> PageResult<Base.Item> {
        let result = try await base.fetch(request)
        end.instant.withLock { $0 = ContinuousClock.now }
        return result
    }
}
