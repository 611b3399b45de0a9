import GRDB

/// The full-text index of the items (migration `0010_search`): an FTS5 table that holds the
/// tokens of every item's string values, kept by triggers on `items` in the transaction of
/// every write of an item.
enum SearchIndex {
    /// The migration that makes the index.
    static let migration = "0010_search"

    /// The text indexed for the item of a row of `items`: its string values (those of its type's
    /// searchable members, when the type names them) in document order, one per line, or `NULL`
    /// for bytes that are not JSON. The same expression as the migration's triggers: a contentless
    /// table deletes a row by being given the text it indexed.
    static let indexedTextSQL = """
        CASE
            WHEN NOT json_valid(items.json) THEN NULL
            WHEN NOT EXISTS (SELECT 1 FROM search_members s WHERE s.item_type = items.type) THEN
                (SELECT group_concat(value, char(10)) FROM json_tree(items.json) WHERE type = 'text')
            ELSE (SELECT group_concat(t.value, char(10))
                FROM json_each(items.json) e CROSS JOIN json_tree(items.json, e.fullkey) t
                WHERE t.type = 'text' AND EXISTS (
                    SELECT 1 FROM search_members s WHERE s.item_type = items.type AND s.member = e.key))
        END
        """

    /// Makes `members` the searchable members of `itemType` (every string value when empty) and
    /// indexes its items again; `false`, touching nothing, when they already are.
    static func setSearchableMembers(_ members: Set<String>, of itemType: String, _ db: Database) throws -> Bool {
        let current = try String.fetchSet(
            db, sql: "SELECT member FROM search_members WHERE item_type = ?", arguments: [itemType])
        guard current != members else { return false }
        // Each item's entry is deleted with the text it was indexed with, before the members change.
        try db.execute(
            sql: "INSERT INTO item_search (item_search, rowid, text) SELECT 'delete', id, \(indexedTextSQL) "
                + "FROM items WHERE type = ?",
            arguments: [itemType])
        try db.execute(sql: "DELETE FROM search_members WHERE item_type = ?", arguments: [itemType])
        for member in members.sorted() {
            try db.execute(
                sql: "INSERT INTO search_members (item_type, member) VALUES (?, ?)", arguments: [itemType, member])
        }
        try db.execute(
            sql: "INSERT INTO item_search (rowid, text) SELECT id, \(indexedTextSQL) FROM items WHERE type = ?",
            arguments: [itemType])
        return true
    }

    /// Merges the index's segments into one, dropping deleted rows' tokens from the file.
    static func optimize(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO item_search (item_search) VALUES ('optimize')")
    }

    /// Throws `SQLITE_CORRUPT` when the index's structure is damaged.
    static func checkIntegrity(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO item_search (item_search) VALUES ('integrity-check')")
    }

    /// Whether the index holds exactly one row per item, by the item's row id.
    static func holdsOneRowPerItem(_ db: Database) throws -> Bool {
        let strays = try Int.fetchOne(
            db,
            sql: """
                SELECT (SELECT count(*) FROM item_search_docsize d WHERE NOT EXISTS (
                        SELECT 1 FROM items i WHERE i.id = d.id))
                    + (SELECT count(*) FROM items i WHERE NOT EXISTS (
                        SELECT 1 FROM item_search_docsize d WHERE d.id = i.id))
                """)
        return strays == 0
    }

    /// Empties the index and indexes every item again.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO item_search (item_search) VALUES ('delete-all')")
        try db.execute(sql: "INSERT INTO item_search (rowid, text) SELECT id, \(indexedTextSQL) FROM items")
        try optimize(db)
    }
}
