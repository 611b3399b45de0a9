import Foundation
import Slippers
import SlippersStorage

extension SQLiteCache: CacheStorage {
    /// The file's path.
    public var locationDescription: String { path }

    /// Saves a fetched page as ``savePage(_:at:in:now:)`` does, stamped now.
    @discardableResult
    public func savePage(_ page: Page<RawItem>, at index: Int, in list: ListDescriptor) throws
        -> ListHead
    {
        try savePage(page, at: index, in: list, now: Date())
    }

    /// Saves a fetched page as ``savePage(_:at:in:now:)`` does, stamped now, unless every item of
    /// it is listed by a page before `index` of the current generation: then nothing is written and
    /// the answer is `nil`. The check and the save are one transaction.
    public func savePageUnlessNothingNew(_ page: Page<RawItem>, at index: Int, in list: ListDescriptor)
        throws -> ListHead?
    {
        guard index > 0, !page.items.isEmpty else { return try savePage(page, at: index, in: list) }
        let now = Date()
        let keys = Array(Set(page.items.map(\.key)))
        let head = try write { db -> ListHead? in
            // A list of another type is left to the write, which refuses it.
            guard let row = try ListRow.fetchOptional(key: list.key, in: db),
                row.itemType == list.itemType
            else { return try writePage(page, at: index, in: list, now: now, db) }
            // The items' rows are looked up once, for this check and for the write.
            let looked = try StoredItems(of: keys, type: row.itemType, in: db)
            let ids = looked.rows.values.map(\.id)
            if ids.count == keys.count, try Self.countListed(ids, before: index, in: row, db: db) == keys.count {
                return nil
            }
            return try writePage(page, at: index, in: list, now: now, looked: looked, db)
        }
        if head != nil { keepBudgetIfDue(now: now) }
        return head
    }

    /// Records that a cached page is still current as ``markPageNotModified(at:in:validators:now:)`` does, now.
    public func markPageNotModified(at index: Int, in key: String, validators: PageValidators) throws {
        try markPageNotModified(at: index, in: key, validators: validators, now: Date())
    }

    /// Saves a fetched page unless it is unchanged, as ``savePageIfChanged(_:at:in:now:)`` does, stamped now.
    @discardableResult
    public func savePageIfChanged(_ page: Page<RawItem>, at index: Int, in list: ListDescriptor) throws
        -> PageSave
    {
        try savePageIfChanged(page, at: index, in: list, now: Date())
    }

    /// Marks the list open (see ``markOpen(_:now:)``): a budget kept meanwhile never evicts it.
    public func syncWillStart(_ key: String) {
        try? markOpen(key)
    }

    /// Keeps the file's budget, if it has one, while the list is still open (so never at its
    /// expense), then marks it closed.
    public func syncDidEnd(_ key: String) {
        _ = try? keepBudget()
        try? markClosed(key)
    }

    /// Logs the retry at `info`.
    public func pageWillBeRetried(at index: Int, in key: String, error: any Error, wait: Duration) {
        logPageRetry(at: index, error, wait)
    }

    /// Invalidates a list, now.
    public func invalidate(_ key: String) throws {
        try invalidate(key, now: Date())
    }

    /// Invalidates every list, now.
    @discardableResult
    public func invalidateAll() throws -> Int {
        try invalidateAll(now: Date())
    }
}
