import Foundation
import Logging
import Slippers
import SlippersNetworking
import SlippersStorage
import Synchronization

/// Runs a ``SyncRequest`` into a cache: the one sync of `slippers sync`, `slippers worker` and a
/// server program's fleet.
///
/// A run plans the list (its stored state, else detection from the first response), then
/// makes the decisions `slippers sync` makes:
///
/// - ``SyncRequest/revalidate``: the cached list is walked with conditional requests;
/// - a complete list whose new items come first is brought up to date from its first page
///   (and revalidated when its total changed);
/// - ``SyncRequest/incremental``: the list is synced from its watermark;
/// - otherwise the list is walked from its committed pages, reading a list that moved while
///   it was read again where it may have hidden items, and checked against its total: a walk
///   that ends short of it throws ``IncompleteList``.
///
/// On a ``SharedListStorage`` (PostgreSQL's) the list runs under its lease, takes the pages
/// other workers fetched ahead, and shares each origin's rate budget with the other workers.
///
/// For example:
///
/// ```swift
/// func syncPosts(into cache: SQLiteCache, token: String) async throws {
///     let report = try await Syncer().run(
///         SyncRequest(url: "https://api.example.com/posts"), into: cache,
///         headers: ["Authorization": "Bearer \(token)"])
///     print(report.summary)
/// }
/// ```
public struct Syncer: Sendable {
    /// What sends the requests; `nil` for the one the request's network settings describe.
    public var transport: (any HTTPTransport)?
    /// The log of requests, retries and the shared rate budget.
    public var logger = Logger(label: "slippers.sync", factory: { _ in SwiftLogNoOpLogHandler() })
    /// Called with what the run does while it runs (retries, waits, progress).
    package var onEvent: @Sendable (SyncEvent) -> Void = { _ in }
    /// Whether a page-number list with a total is read again from its last page after it was
    /// read one page at a time (never on a ``SharedListStorage``).
    public var readsAgainInReverse = true
    /// The account of a request that names none; `nil` for the one the credentials derive.
    public var defaultAccount: Account?

    /// Creates a syncer with the defaults.
    public init() {}

    /// Syncs the list of `request` into `storage`, once the request passes its checks
    /// (``Slippers/SyncRequest/validate(queued:)``, and a ``Slippers/SyncRequest/Style/postBody`` that
    /// says how it pages).
    ///
    /// - parameter headers: Sent with every request to the list's origin only; never stored.
    /// - parameter onPlanned: Called with the list's key once it is planned, before any
    ///   page is fetched.
    /// - returns: What the run did.
    /// - throws: `SyncRequestError` naming the member of a request that cannot run, before any
    ///   request; ``SyncFailure``, ``IncompleteList`` when the walk ended short of the total its
    ///   server announced, `SyncPlanError`, a `NetworkError`, a cache error, or `CancellationError`.
    ///   Committed pages stay.
    public func run(
        _ request: SyncRequest, into storage: any CacheStorage, headers: [String: String] = [:],
        onPlanned: (String) async -> Void = { _ in }
    ) async throws -> SyncReport {
        let run = try Run(syncer: self, request: request, storage: storage, headers: headers)
        try request.validate()
        if request.style.postBody != nil, request.style.postedStyle() == nil {
            throw SyncRequestError(
                member: "style.postBody",
                reason: "holds no member named as pages or offsets are: give cursorPath (a cursor) or pageParameter")
        }
        let plan = try await SyncPlan.make(
            storage: storage, client: run.client, url: run.url, headers: headers,
            overrides: StyleOverrides(request.style), itemType: request.itemType, refresh: request.refresh,
            account: request.account.map { Account($0) } ?? defaultAccount)
        await onPlanned(plan.list.key)
        return try await run.sync(plan)
    }
}

extension Syncer {
    /// One run: the request, its client and the counts the summary tells.
    struct Run: Sendable {
        let syncer: Syncer
        var request: SyncRequest
        let storage: any CacheStorage
        let url: URL
        let headers: [String: String]
        let client: APIClient
        let concurrency: AdaptiveConcurrency
        let requestRetries: RetryCounter

        init(syncer: Syncer, request: SyncRequest, storage: any CacheStorage, headers: [String: String]) throws {
            guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
                let configuration = ServerConfiguration(baseURL: url)
            else { throw SyncFailure.invalidURL(request.url) }
            self.syncer = syncer
            self.request = request
            self.storage = storage
            self.url = url
            self.headers = headers
            let shared = storage as? any SharedListStorage
            var client = APIClient(
                configuration: configuration,
                options: APIClient.Options(
                    transport: syncer.transport ?? request.network.transport(),
                    retryPolicy: request.network.requestRetryPolicy, originPolicy: try request.network.originPolicy(),
                    // Every worker on a shared cache spends each origin's budget through it.
                    rateLimiter: RateLimiter(store: shared?.sharedRateBudgets(logger: syncer.logger))))
            let retries = RetryCounter()
            let onEvent = syncer.onEvent
            client.onRetry = { event in
                retries.add()
                onEvent(.requestRetry(event))
            }
            client.onRateLimitWait = { onEvent(.rateLimitWait($0)) }
            client.logger = syncer.logger
            let concurrency = AdaptiveConcurrency(
                maximum: request.network.concurrency ?? SyncRequest.Network.defaultConcurrency)
            self.client = client.reportingThrottles(to: concurrency)
            self.concurrency = concurrency
            requestRetries = retries
        }

        /// The run's page budget and limits.
        var retryBudget: RetryBudget { request.network.pageRetryBudget }
        var maxPages: Int? { request.limits.maxPages }
        var maxItems: Int? { request.limits.maxItems }
        var stallLimit: Int { request.limits.pagesWithoutNewItems }

        /// Syncs the planned list as the request says.
        func sync(_ plan: SyncPlan) async throws -> SyncReport {
            if request.revalidate { return try await revalidate(plan) }
            if let report = try await refreshedHead(plan) { return report }
            if let settings = request.incremental { return try await incremental(plan, settings: settings) }
            return try await walk(plan)
        }
    }

    /// The retries of a run's requests, counted as the client reports them.
    final class RetryCounter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}
