import Foundation

/// How a ``Pager`` weighs the cache against the network.
///
/// Chosen per pager, and per call where a call takes one.
public enum CachePolicy: Hashable, Sendable {
    /// Publish what the cache holds at once, then revalidate with the network
    /// and publish the fresh pages. The default.
    case cacheThenNetwork
    /// Use the cache while it is younger than `maxAge` and not invalidated;
    /// only a missing or older page goes to the network.
    case cacheFirst(maxAge: TimeInterval)
    /// Ask the network first; publish the cache only when the network fails.
    case networkFirst
    /// Never touch the network: serve what the cache holds, and stop there.
    case cacheOnly
    /// Never read the cache: every page comes from the network (and is still stored).
    case networkOnly

    /// Whether this policy may read pages from the cache.
    var readsCache: Bool { self != .networkOnly }

    /// Whether this policy may send requests.
    var usesNetwork: Bool { self != .cacheOnly }
}
