import Slippers
import SlippersNetworking

/// What a ``Syncer`` run tells while it runs, for a progress bar, a log or a notice.
public enum SyncEvent: Sendable {
    /// A request failed and is sent again after a wait.
    case requestRetry(APIClient.RetryEvent)
    /// A request waits for the origin's rate budget.
    case rateLimitWait(APIClient.RateLimitWait)
    /// A page failed past its request's retries and is asked for again after `wait`.
    case pageRetry(index: Int, error: any Error, wait: Duration)
    /// Another process holds the list's lease: the run waits for it.
    case waitingForLease(collection: String)
    /// The run's figures after a page.
    case progress(SyncProgress)
}

/// A run's figures so far: the list's pages and items, the total its server announced and the rate.
public struct SyncProgress: Sendable, Hashable {
    /// The pages the list holds, counting those cached before the run.
    public var pages: Int
    /// The items the list holds, counting those cached before the run.
    public var items: Int
    /// The total the server announced, when it did.
    public var total: Int?
    /// The items this run fetched per second; 0 when unknown.
    public var itemsPerSecond: Double

    /// Creates the figures.
    public init(pages: Int, items: Int, total: Int?, itemsPerSecond: Double) {
        self.pages = pages
        self.items = items
        self.total = total
        self.itemsPerSecond = itemsPerSecond
    }
}
