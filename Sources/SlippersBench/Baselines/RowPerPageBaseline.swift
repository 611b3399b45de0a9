import Foundation
import Slippers

/// Baseline (c): one SQLite row per page, holding the page's items as one JSON array.
///
/// Written with the raw C API, like the floor, so that the two differ by their
/// layout and not by a library: `pages(page INTEGER PRIMARY KEY, json BLOB)`.
/// Updating one item reads, decodes, changes, encodes and writes back its whole
/// page in one transaction.
final class RowPerPageBaseline: Baseline {
    private let connection: SQLiteConnection
    private let upsertPage: SQLiteStatement
    private let selectPage: SQLiteStatement

    /// Opens (creating if needed) the database at `path`.
    init(path: String, synchronous: SynchronousMode) throws {
        connection = try SQLiteConnection(path: path, synchronous: synchronous)
        try connection.execute("CREATE TABLE IF NOT EXISTS pages (page INTEGER PRIMARY KEY, json BLOB NOT NULL)")
        upsertPage = try connection.prepare("INSERT OR REPLACE INTO pages (page, json) VALUES (?, ?)")
        selectPage = try connection.prepare("SELECT json FROM pages WHERE page = ?")
    }

    func persist(page: Int, items: [BenchItem]) throws {
        try write(page: page, items: items)
    }

    func readPage(_ page: Int) throws -> [BenchItem] {
        try selectPage.reset()
        try selectPage.bind(page, at: 1)
        guard try selectPage.step() else { return [] }
        let json = selectPage.blob(at: 0)
        // A statement left on a row keeps its read transaction open, which would hold back later commits.
        try selectPage.reset()
        return try JsonProvider.decode([BenchItem].self, from: json)
    }

    func updateItem(_ item: BenchItem, inPage page: Int) throws {
        try connection.transaction {
            var items = try readPage(page)
            guard let index = items.firstIndex(where: { $0.id == item.id }) else { return }
            items[index] = item
            try write(page: page, items: items)
        }
    }

    private func write(page: Int, items: [BenchItem]) throws {
        try upsertPage.reset()
        try upsertPage.bind(page, at: 1)
        try upsertPage.bind(try JsonProvider.encode(items), at: 2)
        try upsertPage.run()
    }
}
