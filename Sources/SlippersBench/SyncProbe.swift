import ArgumentParser
import Foundation
import Slippers
import SlippersKit
import SlippersNetworking
import SlippersSQLite
import SlippersStorage
import Synchronization

/// The child process of the sync figure: pages a whole list from an HTTP API into a new cache.
///
/// Hidden from help: the benchmark runs it once per list size, so that
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
        /// The part of it spent in the cache, saving pages (`SQLiteCache.savePage`).
        var storeMicroseconds: Double
        /// The mean time from a page's arrival to the request of the next (one page at a time, the
        /// client's own share of each page's time); negative when requests overlap.
        var requestGapMicroseconds: Double = 0
        /// Items and pages synced.
        var items: Int
        var pages: Int
        /// The process's peak resident set size, in bytes, over its whole life.
        var peakBytes: UInt64
        /// The process's CPU time, user and system, over its whole life.
        var cpuMicroseconds: Double = 0
    }

    /// How the API pages.
    enum Style: String, ExpressibleByArgument, CaseIterable {
        /// Page numbers, with the total in the body: addressable, several pages at once.
        case page
        /// A cursor in the body: one page after another.
        case cursor
        /// Detected from the first page, as `slippers sync` does: a next URL or a `Link` header
        /// that advances one parameter names every page, so several are asked for at once.
        case detect
        /// A Relay connection (the fixture's `/graphql` posts): its cursors say where they point
        /// (`arrayconnection:N`), so the pages after the first are asked for several at once.
        case relay
    }

    /// The fixture's Relay connection of posts, `first` and `after`.
    static let relayQuery = """
        query($first: Int!, $after: String) {
          posts(first: $first, after: $after) { totalCount edges { node { id title } } pageInfo { hasNextPage endCursor } }
        }
        """

    @Option(help: "The route of the API, e.g. http://127.0.0.1:PORT/page or /cursor.")
    var url: String

    @Option(help: "How the route pages.")
    var style: Style = .page

    @Option(help: "The most pages asked for at once (addressable pages only).")
    var concurrency = 1

    @Option(help: "Items per page to ask for.")
    var pageSize: Int = 50

    @Option(help: "The cache file to create.")
    var path: String

    func run() throws {
        guard let url = URL(string: url), let base = URL(string: "/", relativeTo: url)?.absoluteURL,
            let server = ServerConfiguration(baseURL: base)
        else { throw ValidationError("--url must be an http URL") }
        let (pageSize, path, concurrency, probeStyle) = (
            pageSize, path, AdaptiveConcurrency(maximum: concurrency), style
        )
        var outcome = try Blocking.run {
            let store = try SQLiteCache(path: path)
            let client = APIClient(configuration: server).reportingThrottles(to: concurrency)
            switch probeStyle {
            case .page, .cursor, .relay:
                let style: PaginationStyle =
                    switch probeStyle {
                    case .page: .pageNumber(pageSize: pageSize, itemsKeyPath: "results", totalKeyPath: "total")
                    case .relay: .graphQL(query: Self.relayQuery, connectionPath: "posts", pageSize: pageSize)
                    default: .cursor(pageSize: pageSize, itemsKeyPath: "results")
                    }
                let http = HTTPPageSource(client: client, url: url, style: style)
                let list = ListDescriptor(key: http.listKey, itemType: "FixtureItem")
                return try await Self.sync(
                    TimedSource(http), into: list, of: store, concurrency: concurrency)
            case .detect:
                // The clock starts before the first request, which detects the style.
                let start = ContinuousClock.now
                let plan = try await SyncPlan.make(storage: store, client: client, url: url)
                var outcome = try await Self.sync(
                    TimedSource(plan.source), into: plan.list, of: store, concurrency: concurrency)
                outcome.wallMicroseconds = start.duration(to: .now).microseconds
                return outcome
            }
        }
        outcome.peakBytes = PeakMemory.peakBytes() ?? 0
        outcome.cpuMicroseconds = ProcessCPU.time().microseconds
        print(String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self))
    }

    /// Syncs `source` into a new list and times it.
    private static func sync<Source: AddressablePageSource>(
        _ source: TimedSource<Source>, into list: ListDescriptor, of store: SQLiteCache,
        concurrency: AdaptiveConcurrency
    ) async throws -> Outcome where Source.Item == RawItem {
        var sync = ListSync(storage: store, source: source, list: list)
        sync.concurrency = concurrency
        let clock = ContinuousClock()
        let start = clock.now
        var storeTime = Duration.zero
        // `onPage` runs right after a save commits, once for each page it saved. The last fetch
        // returned right before the save: the time between the two is the cache's share that the
        // next request, asked for before the save, did not hide. Pages saved together count once.
        var counted: ContinuousClock.Instant?
        let progress = try await sync.run { _ in
            let fetchEnd = source.lastFetchEnd
            guard fetchEnd != counted else { return }
            counted = fetchEnd
            storeTime += fetchEnd.duration(to: clock.now)
        }
        return Outcome(
            wallMicroseconds: start.duration(to: clock.now).microseconds,
            storeMicroseconds: storeTime.microseconds, requestGapMicroseconds: source.meanGap.microseconds,
            items: progress.itemsFetched, pages: progress.pagesFetched, peakBytes: 0)
    }
}

/// A page source that remembers when its last fetch returned.
struct TimedSource<Base: AddressablePageSource>: AddressablePageSource {
    /// The instants, shared by the copies of a source.
    private final class Stamp: Sendable {
        let instant = Mutex(ContinuousClock.now)
        /// The time from each fetch's return to the next fetch's start, summed, and the number of such gaps.
        let gaps = Mutex((total: Duration.zero, count: 0))
    }

    let base: Base
    private let end = Stamp()

    init(_ base: Base) {
        self.base = base
    }

    /// When the last fetch returned.
    var lastFetchEnd: ContinuousClock.Instant { end.instant.withLock { $0 } }

    /// The mean time from a fetch's return to the start of the next one: what one page at a time adds to the network's time.
    var meanGap: Duration {
        end.gaps.withLock { $0.count == 0 ? .zero : $0.total / $0.count }
    }

    func fetch(_ request: PageRequest) async throws -> PageResult<Base.Item> {
        if request.token != nil {
            let gap = lastFetchEnd.duration(to: ContinuousClock.now)
            end.gaps.withLock {
                $0.total += gap
                $0.count += 1
            }
        }
        let result = try await base.fetch(request)
        end.instant.withLock { $0 = ContinuousClock.now }
        return result
    }

    func token(forPageAt index: Int) -> PageToken? {
        base.token(forPageAt: index)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        base.pageCount(forTotal: total, pageItemCount: pageItemCount)
    }
}
