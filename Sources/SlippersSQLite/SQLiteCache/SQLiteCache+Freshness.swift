import Foundation
import GRDB
import Slippers
import SlippersStorage

/// The write path of fetched pages: saving, revalidating by digest, and where the resume point goes.
extension SQLiteCache {
    /// Writes a fetched page in the transaction `db`; with `comparingDigest`, an unchanged page only records its
    /// verification. `looked` is the lookup of the page's items, and `found` the list's row, when read earlier in
    /// the same transaction.
    static func writePage(
        _ page: Page<RawItem>, at index: Int, in list: ListDescriptor, comparingDigest: Bool,
        now: Date, looked: StoredItems? = nil, row found: ListRow? = nil, _ db: Database
    ) throws -> PageSave {
        var row = try found.map { try ListRow.checked($0, for: list) } ?? ListRow.fetchOrCreate(list, now: now, in: db)
        let stored = try PageRow.fetch(listID: row.id, index: index, in: db)
        let digest = PageDigest.of(page.items)
        var outcome: PageSave.Outcome = stored == nil ? .new : .changed
        if comparingDigest, let stored, stored.nextToken == page.nextToken?.rawValue,
            try stored.digest.flatMap({ PageDigest.isCurrent($0) ? $0 == digest : nil })
                ?? (items(ofPage: stored.id, in: db) == page.items)
        {
            outcome = .unchanged
        }
        if index == 0 {
            if outcome != .unchanged { row.generation += 1 }
            row.invalidatedAt = nil
            row.refreshedAt = now.storedValue
        } else if try generation(ofPage: index - 1, in: row.id, db) != row.generation {
            throw CacheError.pageOutOfOrder(list: list.key, index: index)
        }
        // Ids the page repeats: twice on it, or listed by an earlier page. Each is stored once.
        var repeated = page.items.count - Set(page.items.map(\.key)).count
        if outcome == .unchanged, let stored {
            try recordVerification(of: stored.id, page: page, generation: row.generation, digest: digest, now: now, db)
        } else {
            // A page that lists an id twice keeps it once, at its first position (the later JSON wins).
            var deleted: Set<Int64> = []
            var new: Set<Int64> = []
            var written: [Data]? = []
            var itemIDs = uniqued(
                try upsertItems(
                    page.items, type: row.itemType, now: now, in: db, deleted: &deleted, new: &new, looked: looked,
                    written: &written))
            if !deleted.isEmpty { itemIDs.removeAll { deleted.contains($0) } }
            if let stored {
                // Items made locally stay where they were placed until the server lists them; a
                // revalidation keeps the items with a pending change too: it never drops a pending write.
                let local = try pendingItems(onPage: stored.id, changedToo: comparingDigest, in: db)
                let fetched = Set(itemIDs)
                let first = local.first.filter { !fetched.contains($0) }
                let last = local.last.filter { !fetched.contains($0) }
                if !first.isEmpty || !last.isEmpty {
                    itemIDs = uniqued(first + itemIDs + last)
                }
            }
            let pageID = try upsertPageRow(
                page, index: index, itemCount: itemIDs.count, generation: row.generation, listID: row.id,
                digest: digest, now: now, in: db)
            try replaceMembership(of: pageID, with: itemIDs, in: db)
            ItemViews.keepCurrent(afterWritingPage: pageID, now: now, items: written.map { ($0, row.itemType) }, db)
            // An item this write inserted is on no earlier page.
            if index > 0 {
                repeated += try countListed(itemIDs.filter { !new.contains($0) }, before: index, in: row, db: db)
            }
        }
        if let stored, stored.nextToken != page.nextToken?.rawValue, !page.isLast,
            try lastCurrentIndex(of: row, db) > index
        {
            // The pages after this one were reached through another next token: they no longer follow it.
            try db.execute(
                sql: "UPDATE pages SET generation = ? WHERE collection_id = ? AND idx > ? AND generation = ?",
                arguments: [row.generation - 1, row.id, index, row.generation])
        }
        try moveResumePoint(after: index, nextToken: page.nextToken?.rawValue, row: &row, db)
        if let total = page.total { row.total = total }
        try row.update(in: db)
        guard var head = try listHead(list.key, in: db) else {
            throw CacheError.listNotFound(key: list.key)
        }
        head.repeatedItemCount = repeated
        return PageSave(head: head, outcome: outcome)
    }

    /// Moves the list's resume point after the current page at `index` when it ends the current run.
    ///
    /// A last page (no next token) ends the list: the pages after it are removed.
    static func moveResumePoint(after index: Int, nextToken: String?, row: inout ListRow, _ db: Database) throws {
        guard let nextToken else {
            try db.execute(sql: "DELETE FROM pages WHERE collection_id = ? AND idx > ?", arguments: [row.id, index])
            row.resumeToken = nil
            row.endReached = true
            return
        }
        if index >= (try lastCurrentIndex(of: row, db)) {
            row.resumeToken = nextToken
            row.endReached = false
        }
    }

    /// The index of the last page of the list's current generation; -1 when it has none.
    static func lastCurrentIndex(of row: ListRow, _ db: Database) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT max(idx) FROM pages WHERE collection_id = ? AND generation = ?"),
            arguments: [row.id, row.generation]) ?? -1
    }

    /// The generation of the page at `index`, or `nil` when it is not cached.
    static func generation(ofPage index: Int, in listID: Int64, _ db: Database) throws -> Int? {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT generation FROM pages WHERE collection_id = ? AND idx = ?"),
            arguments: [listID, index])
    }

    /// Records on a page's row that the network confirmed it, with the response's validators and caching headers.
    private static func recordVerification(
        of pageID: Int64, page: Page<RawItem>, generation: Int, digest: String, now: Date, _ db: Database
    ) throws {
        let caching = page.caching
        try db.cachedStatement(
            sql: """
                UPDATE pages SET generation = ?, token = ?, fetched_at = ?, verified_at = ?, etag = ?,
                    last_modified = ?, digest = ?, lifetime = ?, no_cache = ?, stale_while_revalidate = ?,
                    stale_if_error = ?, vary = ?, vary_key = ?
                WHERE id = ?
                """
        ).execute(arguments: [
            generation, page.token?.rawValue, now.storedValue, now.storedValue, page.validators.etag,
            page.validators.lastModified, digest, caching.lifetime(now: now), caching.cacheControl.noCache,
            caching.cacheControl.staleWhileRevalidate, caching.cacheControl.staleIfError,
            caching.vary.isEmpty ? nil : caching.vary.joined(separator: ","), caching.varyKey, pageID,
        ])
    }
}

/// The few columns of a stored page row the write path compares against.
struct PageRow {
    var id: Int64
    var generation: Int
    var nextToken: String?
    var digest: String?

    static func fetch(listID: Int64, index: Int, in db: Database) throws -> PageRow? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT id, generation, next_token, digest FROM pages WHERE collection_id = ? AND idx = ?"),
            arguments: [listID, index]
        ).map { PageRow(id: $0[0], generation: $0[1], nextToken: $0[2], digest: $0[3]) }
    }
}
