import Foundation
import GRDB
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

    /// Saves fetched pages that follow one another, the first at `index`, each as
    /// ``savePage(_:at:in:now:)`` does, stamped now, in one transaction, up to the first that
    /// brings nothing new: a page after the list's first, with items and a next token, every
    /// item of which a page before it lists (of the current generation before `index`, or of
    /// `pages`). That page and the pages after it are not written. For each page, the check and
    /// the write read its items' rows once.
    ///
    /// - returns: The list's head after each page written, in order.
    /// - throws: As ``savePage(_:at:in:now:)``; when it throws, none of the pages is written.
    public func savePagesUnlessNothingNew(_ pages: [Page<RawItem>], at index: Int, in list: ListDescriptor)
        throws -> [ListHead]
    {
        guard !pages.isEmpty else { return [] }
        precondition(index >= 0, "page index must not be negative")
        let now = Date()
        let heads = try write { db -> [ListHead] in
            var heads: [ListHead] = []
            for (offset, page) in pages.enumerated() {
                guard let head = try writePageUnlessNothingNew(page, at: index + offset, in: list, now: now, db) else {
                    break
                }
                heads.append(head)
            }
            return heads
        }
        if !heads.isEmpty { keepBudgetIfDue(now: now) }
        return heads
    }

    /// Writes a page as ``writePage(_:at:in:now:looked:_:)`` does, in the transaction `db` is in,
    /// unless it brings nothing new (see ``savePagesUnlessNothingNew(_:at:in:)``): then `nil`, and
    /// nothing is written.
    private func writePageUnlessNothingNew(
        _ page: Page<RawItem>, at index: Int, in list: ListDescriptor, now: Date, _ db: Database
    ) throws -> ListHead? {
        guard index > 0, !page.items.isEmpty, page.nextToken != nil else {
            return try writePage(page, at: index, in: list, now: now, db)
        }
        // A list of another type is left to the write, which refuses it.
        guard let row = try ListRow.fetchOptional(key: list.key, in: db), row.itemType == list.itemType else {
            return try writePage(page, at: index, in: list, now: now, db)
        }
        let keys = Array(Set(page.items.map(\.key)))
        // The items' rows are looked up once, for this check and for the write.
        let looked = try StoredItems(of: keys, type: row.itemType, in: db)
        let ids = looked.rows.values.map(\.id)
        if ids.count == keys.count, try Self.countListed(ids, before: index, in: row, db: db) == keys.count {
            return nil
        }
        return try writePage(page, at: index, in: list, now: now, looked: looked, row: row, db)
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
