import Foundation

/// How much a cache file may hold: its items' bytes, the age of its lists, or both.
///
/// Kept by ``SQLiteCache/keepBudget(now:)``, which a `ListSync` calls when it ends and a
/// store calls after saving pages (at most every ``SQLiteCache/budgetCheckInterval``). The least
/// recently read lists go first (read: opened by a pager; else written). Never evicted:
/// an item with a write in the outbox, and a list open in a live process of this machine.
public struct CacheBudget: Hashable, Sendable, Codable {
    /// The most bytes of item JSON the file keeps; `nil` for no limit.
    public var maxBytes: Int64?
    /// The longest time a list is kept since it was last read or written; `nil` for no limit.
    public var maxAge: TimeInterval?

    /// Creates a budget; a limit not given is none.
    public init(maxBytes: Int64? = nil, maxAge: TimeInterval? = nil) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
    }
}
