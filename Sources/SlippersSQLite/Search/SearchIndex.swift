import Foundation
import GRDB

/// The full-text index of the items (migration `0010_search`): an FTS5 table that holds the
/// tokens of the string values of the items of every searchable type, kept by triggers on
/// `items` in the transaction of every write of such an item.
///
/// A type is searchable once it has a row in `search_types`: when it is first searched, or when
/// its searchable members are named. The items of other types are written with no index cost.
enum SearchIndex {
    /// The migration that makes the index.
    static let migration = "0010_search"

    /// The token every indexed item holds, first, so that the index can list its rows (a
    /// contentless table keeps no other list of them): what `doctor` compares with the items.
    static let everyItemToken = "slippersindexeditem"

    /// The text indexed for the item of a row of `items` joined with its type's row `s` of
    /// `search_types`: ``everyItemToken``, then its string values (those of the type's members,
    /// when the type names them) in document order, one per line. The same expression as the
    /// migration's triggers: a contentless table deletes a row by being given the text it indexed.
    static let indexedTextSQL = """
        CASE
            WHEN NOT json_valid(items.json) THEN '\(everyItemToken)'
            WHEN s.members IS NULL THEN '\(everyItemToken)' || char(10) || ifnull(
                (SELECT group_concat(value, char(10)) FROM json_tree(items.json) WHERE type = 'text'), '')
            ELSE '\(everyItemToken)' || char(10) || ifnull((SELECT group_concat(t.value, char(10))
                FROM json_each(items.json) e CROSS JOIN json_tree(items.json, e.fullkey) t
                WHERE t.type = 'text' AND e.key IN (SELECT value FROM json_each(s.members))), '')
        END
        """

    /// Makes `itemType` searchable with `members` (every string value when `nil`), indexing its
    /// cached items once; `false`, touching nothing, when it already is, with those members.
    static func makeSearchable(_ itemType: String, members: Set<String>?, _ db: Database) throws -> Bool {
        let encoded = try members.map { members in
            String(decoding: try JSONEncoder().encode(members.sorted()), as: UTF8.self)
        }
        let row = try Row.fetchOne(
            db, sql: "SELECT members FROM search_types WHERE item_type = ?", arguments: [itemType])
        if let row, (row["members"] as String?) == encoded { return false }
        if row != nil {
            // Each item's entry is deleted with the text it was indexed with, before the members change.
            try writeEntries(deleting: true, ofType: itemType, db)
        }
        try db.execute(
            sql: "INSERT INTO search_types (item_type, members) VALUES (?1, ?2) "
                + "ON CONFLICT (item_type) DO UPDATE SET members = ?2",
            arguments: [itemType, encoded])
        try writeEntries(deleting: false, ofType: itemType, db)
        return true
    }

    /// Writes (or deletes, with the text they were written with) the index entries of the items
    /// of `itemType`, or of every searchable type when `nil`.
    private static func writeEntries(deleting: Bool, ofType itemType: String?, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO item_search (item_search, rowid, text) SELECT "
                + (deleting ? "'delete'" : "NULL") + ", items.id, \(indexedTextSQL) "
                + "FROM items JOIN search_types s ON s.item_type = items.type"
                + (itemType == nil ? "" : " WHERE items.type = ?"),
            arguments: StatementArguments(itemType.map { [$0] } ?? []))
    }

    /// Whether `itemType` is searchable, and so indexed as its items are written.
    static func isSearchable(_ itemType: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM search_types WHERE item_type = ?)", arguments: [itemType]) ?? false
    }

    /// Merges the index's segments into one, dropping deleted rows' tokens from the file.
    static func optimize(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO item_search (item_search) VALUES ('optimize')")
    }

    /// Throws `SQLITE_CORRUPT` when the index's structure is damaged.
    static func checkIntegrity(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO item_search (item_search) VALUES ('integrity-check')")
    }

    /// Whether the index holds exactly the items of the searchable types, by their row ids.
    static func holdsOneRowPerItem(_ db: Database) throws -> Bool {
        let indexed = try Int64.fetchSet(
            db, sql: "SELECT rowid FROM item_search WHERE item_search MATCH ?", arguments: [everyItemToken])
        let items = try Int64.fetchSet(
            db, sql: "SELECT items.id FROM items JOIN search_types s ON s.item_type = items.type")
        return indexed == items
    }

    /// Empties the index and indexes the items of every searchable type again.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO item_search (item_search) VALUES ('delete-all')")
        try writeEntries(deleting: false, ofType: nil, db)
        try optimize(db)
    }
}
