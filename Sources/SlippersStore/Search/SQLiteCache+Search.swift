import Foundation
import GRDB
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// The cached items that match `text`, most relevant first (FTS5's bm25 ranking).
    ///
    /// Every string value of an item, at any depth, is searched. Matching ignores case and
    /// diacritics (`cafe` finds `Café`); words are ANDed; text in double quotes is a phrase;
    /// the last word matches as a prefix while it is being typed (`mess` finds `message`).
    /// Any text is safe: FTS5's syntax is matched as text, and text with no word finds nothing.
    /// An item with pending writes is found by its written values; an item deleted locally is
    /// not found. The index is written in the transaction that writes the items, so it holds
    /// what the cache holds at every instant.
    ///
    /// For example:
    ///
    /// ```swift
    /// let matches = try cache.search("cafe mess", in: .collection("GET /messages"), limit: 20)
    /// ```
    ///
    /// - parameter text: What a person typed.
    /// - parameter scope: The list or the item type to search; either keeps to its account.
    /// - parameter limit: The most items returned.
    /// - returns: The matching items, best first; none for a list that is not cached.
    /// - throws: A `DatabaseError`.
    public func search(_ text: String, in scope: SearchScope, limit: Int = 50) throws -> [RawItem] {
        let pattern = SearchPattern(text)
        guard !pattern.isEmpty, limit > 0 else { return [] }
        return try read { db in
            let rows: RowCursor
            switch scope {
            case .collection(let key):
                guard let collection = try CollectionRow.optionalID(forKey: key, in: db) else { return [] }
                rows = try Row.fetchCursor(
                    db.cachedStatement(sql: Self.searchInCollectionSQL),
                    arguments: [pattern.query, collection, limit])
            case .itemType(let type):
                rows = try Row.fetchCursor(
                    db.cachedStatement(sql: Self.searchInItemTypeSQL), arguments: [pattern.query, type, limit])
            }
            var items: [RawItem] = []
            while let row = try rows.next() { items.append(Self.rawItem(row)) }
            return items
        }
    }

    /// Matches first, then each match's item by its row id (`CROSS JOIN` fixes that order), kept
    /// when a page of the collection lists it (through `page_items_by_item`): a cost per match.
    static let searchInCollectionSQL = """
        SELECT i.key, i.json FROM item_search CROSS JOIN items i ON i.id = item_search.rowid
        WHERE item_search MATCH ?1 AND EXISTS (
            SELECT 1 FROM page_items pi JOIN pages p ON p.id = pi.page_id
            WHERE pi.item_id = i.id AND p.collection_id = ?2)
        ORDER BY item_search.rank LIMIT ?3
        """

    /// Matches first, then each match's item by its row id, kept when it has the type and is not deleted locally.
    static let searchInItemTypeSQL = """
        SELECT i.key, i.json FROM item_search CROSS JOIN items i ON i.id = item_search.rowid
        WHERE item_search MATCH ?1 AND i.type = ?2 AND i.overlaid <> \(Overlay.deleted.rawValue)
        ORDER BY item_search.rank LIMIT ?3
        """
}

extension SQLiteCache {
    /// Whether the full-text index holds exactly one sound entry per cached item: what `doctor` checks.
    ///
    /// The index is written in every item's transaction, so it always agrees unless the file
    /// was changed by hand (an `items` row written with the index's triggers dropped).
    ///
    /// - throws: A `DatabaseError`, for instance when the index is damaged beyond reading.
    public func searchIndexAgreesWithItems() throws -> Bool {
        do {
            // FTS5's own integrity check is a write to the index's special column (it writes
            // nothing), which a read-only connection refuses: a read-only store compares row ids only.
            guard mode == .readWrite else { return try read { db in try SearchIndex.holdsOneRowPerItem(db) } }
            return try write { db in
                try SearchIndex.checkIntegrity(db)
                return try SearchIndex.holdsOneRowPerItem(db)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            return false
        }
    }

    /// Empties the full-text index and indexes every cached item again, in one transaction: `doctor --repair`.
    ///
    /// - throws: `StoreError.readOnly(path:)` on a read-only store, or a `DatabaseError`.
    public func rebuildSearchIndex() throws {
        try write { db in try SearchIndex.rebuild(db) }
    }
}

extension SQLiteCache {
    /// Makes only the string values under `members` (top-level member names) searchable in the
    /// items of `itemType`, and indexes its cached items again, once, in one transaction.
    ///
    /// By default every string value of an item is searched; naming the members keeps ids,
    /// URLs and dates out of the index and makes it smaller. The set is kept in the file: the
    /// items saved afterwards are indexed by it. Setting the set it already has does nothing.
    /// An item type carries its account, so each account's type is set on its own.
    ///
    /// For example:
    ///
    /// ```swift
    /// try cache.setSearchableMembers(["title", "body"], of: "Post")
    /// ```
    ///
    /// - parameter members: The members to search; empty for every string value.
    /// - returns: Whether the set changed, and so the type's items were indexed again.
    /// - throws: `StoreError.readOnly(path:)` on a read-only store, or a `DatabaseError`.
    @discardableResult
    public func setSearchableMembers(_ members: [String], of itemType: String) throws -> Bool {
        try write { db in try SearchIndex.setSearchableMembers(Set(members), of: itemType, db) }
    }

    /// The members searched in the items of `itemType`, sorted; empty when every string value is.
    ///
    /// - throws: A `DatabaseError`.
    public func searchableMembers(of itemType: String) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT member FROM search_members WHERE item_type = ? ORDER BY member", arguments: [itemType])
        }
    }
}
