import Slippers

extension ListSync {
    /// Fetches one page alone (no other in flight) under `retryBudget`, telling the storage of each retry;
    /// with the item before it when `overlapping` (``Slippers/PageRequest/overlapsPreviousPage``).
    ///
    /// - returns: The source's answer, and how many times the page was fetched again.
    func fetchPage(_ token: PageToken?, index: Int, overlapping: Bool = false, retryBudget: RetryBudget) async throws
        -> (
            result: PageResult<RawItem>, retries: Int
        )
    {
        try Task.checkCancellation()
        let key = list.key
        var retries = 0
        let requested = PageRequest(token: token, overlapsPreviousPage: overlapping)
        let started = ContinuousClock.now
        defer { SyncMetrics.recordFetch(since: started, retries: retries) }
        let result = try await tracingPage(at: index) {
            try await retryBudget.run(
                retries: &retries,
                onRetry: { storage.pageWillBeRetried(at: index, in: key, error: $0, wait: $1) },
                { try await source.fetch(requested) })
        }
        return (result, retries)
    }
}
