import Slippers
import SlippersNetworking
import SlippersStorage

/// What a ``Syncer`` run tells while it runs, for a progress bar, a log or a notice.
public enum SyncEvent: Sendable {
    /// A request failed and is sent again after a wait.
    case requestRetry(APIClient.RetryEvent)
    /// A request waits for the origin's rate budget.
    case rateLimitWait(APIClient.RateLimitWait)
    /// A page failed past its request's retries and is asked for again after `wait`.
    case pageRetry(index: Int, error: any Error, wait: Duration)
    /// Another process holds the list's lease: the run waits for it.
    case waitingForLease(list: String)
    /// The run's figures after a page: `SyncProgress.pagesCached` and `SyncProgress.itemsCached`
    /// count what the list held before the run.
    case progress(SyncProgress)
}
