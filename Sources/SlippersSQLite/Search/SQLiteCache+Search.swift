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
    /// not found. Ranking is FTS5's bm25 without document lengths: a term rare in the cache and
    /// frequent in an item ranks it first, whatever the item's length.
    ///
    /// The first search of an item type (of a list of that type, or of the type) indexes its
    /// cached items, once, in one transaction; from then on the index is written in the
    /// transaction that writes each of its items, so it holds what the cache holds at every
    /// instant. The items of a type never searched cost no index. ``setSearchableMembers(_:of:)``
    /// indexes a type ahead of its first search.
    ///
    /// For example:
    ///
    /// ```swift
    /// let matches = try cache.search("cafe mess", in: .list("GET /messages"), limit: 20)
    /// ```
    ///
    /// - parameter text: What a person typed.
    /// - parameter scope: The list or the item type to search; either keeps to its account.
    /// - parameter limit: The most items returned.
    /// - returns: The matching items, best first; none for a list that is not cached.
    /// - throws: `SQLiteCacheError.notSearchable(path:type:)` on a read-only store whose type was never
    ///   indexed, or a `DatabaseError`.
    public func search(_ text: String, in scope: SearchScope, limit: Int = 50) throws -> [RawItem] {
        let pattern = SearchPattern(text)
        guard !pattern.isEmpty, limit > 0,
            !pattern.terms.contains(where: { $0.lowercased() == SearchIndex.everyItemToken })
        else { return [] }
        guard let target = try read({ db in try SearchTarget(scope, db) }) else { return [] }
        if !target.isSearchable {
            guard mode == .readWrite else { throw SQLiteCacheError.notSearchable(path: path, type: target.itemType) }
            try write { db in
                if try !SearchIndex.isSearchable(target.itemType, db) {
                    _ = try SearchIndex.makeSearchable(target.itemType, members: nil, db)
                }
            }
        }
        return try read { db in
            // The best matches of every type come first, ranked; those of the list or type are
            // kept. A window that holds too few of them is widened until the index has no more.
            var window = max(64, limit * 4)
            while true {
                let ranked = try Int64.fetchAll(
                    db.cachedStatement(sql: Self.rankedMatchesSQL), arguments: [pattern.query, window])
                var kept: [Int64: RawItem] = [:]
                let rows = try Row.fetchCursor(
                    db.cachedStatement(sql: target.listID == nil ? Self.itemsOfTypeSQL : Self.itemsOfListSQL),
                    arguments: [Self.jsonArray(ranked), target.listID ?? target.itemType])
                while let row = try rows.next() { kept[row[2]] = Self.rawItem(row) }
                if kept.count >= limit || ranked.count < window {
                    return Array(ranked.lazy.compactMap { kept[$0] }.prefix(limit))
                }
                window *= 8
            }
        }
    }

    /// What a search looks in: the item type of its scope, whether that type is indexed, and the list's row.
    private struct SearchTarget: Sendable {
        let itemType: String
        let listID: Int64?
        let isSearchable: Bool

        /// The target of `scope`, or `nil` for a list that is not cached.
        init?(_ scope: SearchScope, _ db: Database) throws {
            switch scope {
            case .list(let key):
                guard let row = try ListRow.fetchOptional(key: key, in: db) else { return nil }
                itemType = row.itemType
                listID = row.id
            case .itemType(let type):
                itemType = type
                listID = nil
            }
            isSearchable = try SearchIndex.isSearchable(itemType, db)
        }
    }

    /// A JSON array of row ids, for `json_each`.
    private static func jsonArray(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// The row ids of the best `?2` matches of the query `?1`, best first (ties by row), reading no row of `items`.
    static let rankedMatchesSQL = """
        SELECT rowid FROM item_search WHERE item_search MATCH ?1 ORDER BY rank, rowid LIMIT ?2
        """

    /// The items among the row ids `?1` (a JSON array) that a page of the list `?2` lists.
    static let itemsOfListSQL = """
        SELECT i.key, i.json, i.id FROM items i WHERE i.id IN (SELECT value FROM json_each(?1)) AND EXISTS (
            SELECT 1 FROM page_items pi JOIN pages p ON p.id = pi.page_id
            WHERE pi.item_id = i.id AND p.collection_id = ?2)
        """

    /// The items among the row ids `?1` (a JSON array) that have the type `?2` and are not deleted locally.
    static let itemsOfTypeSQL = """
        SELECT i.key, i.json, i.id FROM items i WHERE i.id IN (SELECT value FROM json_each(?1))
            AND i.type = ?2 AND i.overlaid <> \(Overlay.deleted.rawValue)
        """
}

extension SQLiteCache {
    /// Whether the full-text index holds exactly one sound entry per cached item of every
    /// searchable type: what `doctor` checks.
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

    /// Empties the full-text index and indexes every cached item of the searchable types again, in
    /// one transaction: `doctor --repair`.
    ///
    /// - throws: `SQLiteCacheError.readOnly(path:)` on a read-only store, or a `DatabaseError`.
    public func rebuildSearchIndex() throws {
        try write { db in try SearchIndex.rebuild(db) }
    }
}

extension SQLiteCache {
    /// Makes only the string values under `members` (top-level member names) searchable in the
    /// items of `itemType`, and indexes its cached items again, once, in one transaction.
    ///
    /// This also makes a type searchable before its first search. By default every string value
    /// of an item is searched; naming the members keeps ids,
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
    /// - throws: `SQLiteCacheError.readOnly(path:)` on a read-only store, or a `DatabaseError`.
    @discardableResult
    public func setSearchableMembers(_ members: [String], of itemType: String) throws -> Bool {
        try write { db in try SearchIndex.makeSearchable(itemType, members: members.isEmpty ? nil : Set(members), db) }
    }

    /// The members searched in the items of `itemType`, sorted; empty when every string value is,
    /// or when the type was never searched.
    ///
    /// - throws: A `DatabaseError`.
    public func searchableMembers(of itemType: String) throws -> [String] {
        try read { db in
            guard
                let members = try String.fetchOne(
                    db, sql: "SELECT members FROM search_types WHERE item_type = ?", arguments: [itemType])
            else { return [] }
            return ((try? JSONDecoder().decode([String].self, from: Data(members.utf8))) ?? []).sorted()
        }
    }
}
