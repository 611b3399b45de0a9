import Foundation

/// How a ``Pager`` weighs the cache and the network, how many pages it shows first, who its
/// pages are for, and how it waits after a failure: one value, with documented defaults.
///
/// For example, a pager that shows what the cache holds for up to a minute, and three pages at once:
///
/// ```swift
/// var configuration = PagerConfiguration(policy: .cacheFirst(maxAge: 60))
/// configuration.initialWindow = 3
/// let pager = Pager<Post>(cache: cache, source: source, collection: posts, configuration: configuration)
/// ```
public struct PagerConfiguration: Sendable {
    // MARK: - Cache and network

    /// How the cache and the network are weighed: ``CachePolicy/cacheThenNetwork`` unless set.
    public var policy: CachePolicy
    /// Whether to cache pages whose response says `Cache-Control: no-store`; `false` unless set,
    /// so such pages are held in memory for the session only. Set it only for an offline-first app
    /// that must keep them (the server said the data is sensitive: protect the file accordingly).
    public var keepsNoStorePages: Bool

    // MARK: - Window

    /// The number of cached pages ``Pager/start()`` publishes, at least 1; 1 unless set.
    /// Restore a scroll position with more.
    public var initialWindow: Int

    // MARK: - Partition

    /// Who the pages are for, such as the signed-in user's id, when the responses depend on it
    /// (they `Vary` on `Authorization`, `Cookie` or `Accept-Language`); `nil` unless set.
    ///
    /// Each partition is cached apart (its collection key and item type carry it, see
    /// ``CollectionKey``) and never served to another; a rotating token within one partition
    /// keeps its cache. Without a partition, a page that `Vary`s on a request header is served
    /// only to a source that sends the same value for it.
    public var partition: String?

    // MARK: - Failures and time

    /// How long to wait before asking the network again after a failure: 2 s, doubling up to 5 minutes.
    public var backoff: OfflineBackoff
    /// The time source; the system's clock unless set (tests set another).
    public var clock: @Sendable () -> Date

    /// Creates a configuration; what is not given keeps its default.
    public init(
        policy: CachePolicy = .cacheThenNetwork,
        initialWindow: Int = 1,
        partition: String? = nil,
        keepsNoStorePages: Bool = false,
        backoff: OfflineBackoff = OfflineBackoff(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.policy = policy
        self.initialWindow = initialWindow
        self.partition = partition
        self.keepsNoStorePages = keepsNoStorePages
        self.backoff = backoff
        self.clock = clock
    }
}
