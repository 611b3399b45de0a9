import Foundation
import Slippers

/// Baseline (a), the floor: one row per item, read by a keyed query, through the raw SQLite C API.
///
/// Schema: `items(id INTEGER PRIMARY KEY, page, position, json BLOB)` with an
/// index on `(page, position)`. Statements are prepared once and reused;
/// writing a page is one transaction. Each row holds one item encoded with
/// ``JsonProvider``, and reading a page decodes the rows one by one: the
/// layout a careful user would choose, and the least work a normalised cache can do.
final class RawSQLiteBaseline: Baseline {
    private let connection: SQLiteConnection
    private let deletePage: SQLiteStatement
    private let insertItem: SQLiteStatement
    private let selectPage: SQLiteStatement
    private let selectPageWithOffset: SQLiteStatement
    private let updateItemJSON: SQLiteStatement
    private let pageSize: Int

    /// Opens (creating if needed) the database at `path`, for pages of `pageSize` items.
    init(path: String, synchronous: SynchronousMode, pageSize: Int = 50) throws {
        connection = try SQLiteConnection(path: path, synchronous: synchronous)
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS items (
                id INTEGER PRIMARY KEY,
                page INTEGER NOT NULL,
                position INTEGER NOT NULL,
                json BLOB NOT NULL);
            CREATE INDEX IF NOT EXISTS items_page ON items(page, position);
            """)
        deletePage = try connection.prepare("DELETE FROM items WHERE page = ?")
        // REPLACE: an item that moved from another page since the last fetch moves here.
        insertItem = try connection.prepare(
            "INSERT OR REPLACE INTO items (id, page, position, json) VALUES (?, ?, ?, ?)")
        selectPage = try connection.prepare("SELECT json FROM items WHERE page = ? ORDER BY position")
        // What a user writes first, and what `OFFSET` costs at depth: every skipped row is read.
        selectPageWithOffset = try connection.prepare("SELECT json FROM items ORDER BY id LIMIT ? OFFSET ?")
        updateItemJSON = try connection.prepare("UPDATE items SET json = ? WHERE id = ?")
        self.pageSize = pageSize
    }

    func persist(page: Int, items: [BenchItem]) throws {
        try connection.transaction {
            try deletePage.reset()
            try deletePage.bind(page, at: 1)
            try deletePage.run()
            for (position, item) in items.enumerated() {
                try insertItem.reset()
                try insertItem.bind(item.id.rawValue, at: 1)
                try insertItem.bind(page, at: 2)
                try insertItem.bind(position, at: 3)
                try insertItem.bind(try JsonProvider.encode(item), at: 4)
                try insertItem.run()
            }
        }
    }

    func readPage(_ page: Int) throws -> [BenchItem] {
        try readRows(page).map { try JsonProvider.decode(BenchItem.self, from: $0) }
    }

    /// The JSON of page `page`'s rows, not decoded: what SQLite alone costs.
    func readRows(_ page: Int) throws -> [Data] {
        try selectPage.reset()
        try selectPage.bind(page, at: 1)
        return try rows(of: selectPage)
    }

    /// The JSON of page `page` found with `ORDER BY id LIMIT … OFFSET …`, not decoded.
    func readRowsWithOffset(_ page: Int) throws -> [Data] {
        try selectPageWithOffset.reset()
        try selectPageWithOffset.bind(pageSize, at: 1)
        try selectPageWithOffset.bind((page - 1) * pageSize, at: 2)
        return try rows(of: selectPageWithOffset)
    }

    /// Page `page` found with `OFFSET` and decoded, as the naive user gets it.
    func readPageWithOffset(_ page: Int) throws -> [BenchItem] {
        try readRowsWithOffset(page).map { try JsonProvider.decode(BenchItem.self, from: $0) }
    }

    func updateItem(_ item: BenchItem, inPage page: Int) throws {
        try updateItemJSON.reset()
        try updateItemJSON.bind(try JsonProvider.encode(item), at: 1)
        try updateItemJSON.bind(item.id.rawValue, at: 2)
        try updateItemJSON.run()
    }

    private func rows(of statement: SQLiteStatement) throws -> [Data] {
        var rows: [Data] = []
        rows.reserveCapacity(pageSize)
        while try statement.step() {
            rows.append(statement.blob(at: 0))
        }
        return rows
    }
}
