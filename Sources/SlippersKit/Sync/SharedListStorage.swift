import Logging
import Slippers
import SlippersNetworking
import SlippersStorage

/// A cache that several processes sync at once, list by list: PostgreSQL's, through SlippersFleet.
///
/// A ``Syncer`` runs a list on such a cache under the list's lease, takes the pages other
/// workers fetched ahead, shares each origin's rate budget with the other workers, and does not
/// read a list again from its end (its pages are fetched ahead by whoever waits for it).
public protocol SharedListStorage: CacheStorage {
    /// Runs `body` under the list's lease: one process at a time runs a list.
    ///
    /// - parameter onWait: Called once when another process holds the lease, before waiting for it.
    func runningUnderListLease<Result: Sendable>(
        _ key: String, onWait: @escaping @Sendable () -> Void, _ body: () async throws -> Result
    ) async throws -> Result

    /// Walks a list that other processes may sync at the same time: under its lease, from a
    /// source that takes the pages other workers fetched ahead, fetching its pages ahead for
    /// the lease holder meanwhile.
    ///
    /// - parameter fingerprint: The digest of how the list's pages are asked for.
    /// - parameter plannedStyle: The style the walk was planned from.
    /// - parameter refresh: Whether the walk starts the list again at its first page.
    /// - parameter concurrency: How many pages are fetched ahead at once while waiting.
    /// - parameter onWait: Called once when another process holds the lease.
    /// - parameter body: The walk, from the shared source.
    func walkingSharedList<Result: Sendable>(
        _ key: String, fingerprint: String, source: PrimedPageSource, plannedStyle: String?, refresh: Bool,
        concurrency: Int, onWait: @escaping @Sendable () -> Void,
        _ body: (any PageSource<RawItem>) async throws -> Result
    ) async throws -> SharedListWalk<Result>

    /// Where each origin's rate budget is shared with the other processes.
    func sharedRateBudgets(logger: Logger) -> any RateBudgetStore
}

/// What the walk of a shared list did besides its own pages.
public struct SharedListWalk<Result: Sendable>: Sendable {
    /// What the walk returned.
    var result: Result
    /// The pages the walk took from other workers instead of fetching them.
    var pagesFetchedByOthers: Int
    /// The pages this worker fetched ahead for another one while it waited for the lease.
    var pagesFetchedAhead: Int

    /// Creates the outcome of a walk.
    public init(result: Result, pagesFetchedByOthers: Int, pagesFetchedAhead: Int) {
        self.result = result
        self.pagesFetchedByOthers = pagesFetchedByOthers
        self.pagesFetchedAhead = pagesFetchedAhead
    }
}
