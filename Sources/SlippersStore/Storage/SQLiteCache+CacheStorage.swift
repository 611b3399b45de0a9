import Foundation
import Slippers
import SlippersStorage

extension SQLiteCache: CacheStorage {
    /// The file's path.
    public var locationDescription: String { path }

    /// Saves a fetched page as ``savePage(_:at:in:now:)`` does, stamped now.
    @discardableResult
    public func savePage(_ page: Page<RawItem>, at index: Int, in collection: CollectionDescriptor) throws
        -> CollectionHead
    {
        try savePage(page, at: index, in: collection, now: Date())
    }

    /// Marks the collection open (see ``markOpen(_:now:)``): a budget kept meanwhile never evicts it.
    public func syncWillStart(_ key: String) {
        try? markOpen(key)
    }

    /// Keeps the file's budget, if it has one, while the collection is still open (so never at its
    /// expense), then marks it closed.
    public func syncDidEnd(_ key: String) {
        _ = try? keepBudget()
        try? markClosed(key)
    }

    /// Logs the retry at `info`.
    public func pageWillBeRetried(at index: Int, in key: String, error: any Error, wait: Duration) {
        logPageRetry(at: index, error, wait)
    }

    /// Invalidates a collection, now.
    public func invalidate(_ key: String) throws {
        try invalidate(key, now: Date())
    }

    /// Invalidates every collection, now.
    @discardableResult
    public func invalidateAll() throws -> Int {
        try invalidateAll(now: Date())
    }
}
