import SlippersStorage

/// A collection's head and a run of its cached pages, read in one transaction.
struct CachedWindow: Hashable, Sendable {
    /// The collection's row and where its current generation ends.
    var head: CollectionHead
    /// The pages asked for, in order, up to the first one that is not cached.
    var pages: [StoredPage]
}
