import Foundation
import Slippers

/// How a ``Pager`` weighs the cache and the network, how many pages it shows first, whose
/// pages they are, and how it waits after a failure: one value, with documented defaults.
///
/// For example, a pager that shows what the cache holds for up to a minute, and three pages at once:
///
/// ```swift
/// var configuration = PagerConfiguration(policy: .cacheFirst(maxAge: 60))
/// configuration.initialWindow = 3
/// let pager = Pager<Post>(cache: cache, source: source, list: posts, configuration: configuration)
/// ```
public struct PagerConfiguration: Sendable {
    // MARK: - Cache and network

    /// How the cache and the network are weighed: ``CachePolicy/cacheThenNetwork`` unless set.
    public var policy: CachePolicy
    /// Whether to cache pages whose response says `Cache-Control: no-store`; `nil` unless set, and
    /// then by the list's account: a list of a declared or derived account keeps them (they are
    /// that person's, and ``SQLiteCache/removeAccount(_:)`` deletes them at sign-out), an
    /// anonymous list holds them in memory for the session only (``Pager/State/isHeldInMemory``).
    /// The server said the data is sensitive: the file at rest is the platform's to protect.
    public var keepsNoStorePages: Bool?

    // MARK: - Window

    /// The number of cached pages ``Pager/start()`` publishes, at least 1; 1 unless set.
    /// Restore a scroll position with more.
    public var initialWindow: Int

    // MARK: - Account

    /// Whose pages these are, such as the signed-in user's id; `nil` unless set, and then the
    /// account the source's credentials derive (``PageSource/credentialDigest``), or the
    /// anonymous account for a source that sends none.
    ///
    /// Each account is cached apart (its list key and item type carry it, see
    /// ``ListKey``) and never served to another. Declare it when the credentials rotate
    /// (a refreshed token, an authenticator that adds `Authorization` as it sends): a derived
    /// account follows the credentials, so a new token would be a new, empty account.
    public var account: Account?

    // MARK: - Failures and time

    /// How long to wait before asking the network again after a failure: 2 s, doubling up to 5 minutes.
    package var backoff: OfflineBackoff
    /// The time source; the system's clock unless set (tests set another).
    var clock: @Sendable () -> Date

    /// Creates a configuration; what is not given keeps its default.
    public init(
        policy: CachePolicy = .cacheThenNetwork,
        initialWindow: Int = 1,
        account: Account? = nil,
        keepsNoStorePages: Bool? = nil,
        backoff: OfflineBackoff = OfflineBackoff(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.policy = policy
        self.initialWindow = initialWindow
        self.account = account
        self.keepsNoStorePages = keepsNoStorePages
        self.backoff = backoff
        self.clock = clock
    }
}
