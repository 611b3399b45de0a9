import Logging
import Slippers
import SlippersKit
import SlippersNetworking
import SlippersPostgres

extension PostgresCache: SharedListStorage {
    /// Runs `body` under the list's lease (see ``PostgresCache/withListLease(_:onWait:whileWaiting:_:)``).
    public func runningUnderListLease<Result: Sendable>(
        _ key: String, onWait: @escaping @Sendable () -> Void, _ body: () async throws -> Result
    ) async throws -> Result {
        try await withListLease(key, onWait: onWait, body)
    }

    /// Walks the list with the other workers (see ``PostgresCache/syncingSharedList(_:source:plannedStyle:refresh:concurrency:onWait:_:)``).
    public func walkingSharedList<Result: Sendable>(
        _ key: String, fingerprint: String, source: PrimedPageSource, plannedStyle: String?, refresh: Bool,
        concurrency: Int, onWait: @escaping @Sendable () -> Void,
        _ body: (any PageSource<RawItem>) async throws -> Result
    ) async throws -> SharedListWalk<Result> {
        let synced = try await syncingSharedList(
            SharedList(list: key, fingerprint: fingerprint), source: source, plannedStyle: plannedStyle,
            refresh: refresh, concurrency: concurrency, onWait: onWait
        ) { shared in
            try await body(shared)
        }
        return SharedListWalk(
            result: synced.result, pagesFetchedByOthers: synced.pagesFetchedByOthers,
            pagesFetchedAhead: synced.pagesFetchedAhead)
    }

    /// The rate budgets every worker on this database shares, one row per origin.
    public func sharedRateBudgets(logger: Logger) -> any RateBudgetStore {
        PostgresRateBudgets(cache: self, logger: logger)
    }
}
