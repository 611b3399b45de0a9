import SlippersStorage

/// A list's head and a run of its cached pages, read in one transaction.
struct CachedWindow: Hashable, Sendable {
    /// The list's row and where its current generation ends.
    var head: ListHead
    /// The pages asked for, in order, up to the first one that is not cached.
    var pages: [StoredPage]
}
