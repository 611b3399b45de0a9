import Foundation
import Slippers
import SlippersSQLite

/// A large cache file for the cold-start figure, written fast with raw SQL in the cache's own schema.
///
/// Saving a million items page by page through the cache would take most of
/// a run; the fixture only has to be a file the cache would have written. So
/// the cache creates and migrates the file, then raw prepared statements fill
/// its tables in large transactions, as `savePage` would have left them: one
/// list, its pages in one generation, each page's membership, one row
/// per item holding the item encoded with ``JsonProvider``.
enum ColdStartFixture {
    /// The list key the fixture's items are filed under.
    static let listKey = "GET /cold"

    /// Writes a file at `path` holding one list of `itemCount` items in pages of `pageSize`.
    static func build(path: String, itemCount: Int, pageSize: Int, progress: Progress) throws {
        try SQLiteCache(path: path).close()
        let connection = try SQLiteConnection(path: path, synchronous: .normal)
        let pageCount = itemCount / pageSize
        let now = Date().timeIntervalSince1970
        let insertList = try connection.prepare(
            """
            INSERT INTO collections (id, key, item_type, resume_token, end_reached, total, created_at,
                refreshed_at, generation)
            VALUES (1, ?, ?, NULL, 1, ?, ?, ?, 1)
            """)
        let insertItem = try connection.prepare(
            "INSERT INTO items (id, type, key, json, updated_at) VALUES (?, ?, ?, ?, ?)")
        let insertPage = try connection.prepare(
            """
            INSERT INTO pages (id, collection_id, idx, generation, token, next_token, fetched_at, item_count)
            VALUES (?, 1, ?, 1, ?, ?, ?, ?)
            """)
        let insertMember = try connection.prepare(
            "INSERT INTO page_items (page_id, position, item_id) VALUES (?, ?, ?)")
        let itemType = String(describing: BenchItem.self)
        try connection.transaction {
            try insertList.bind(listKey, at: 1)
            try insertList.bind(itemType, at: 2)
            try insertList.bind(pageCount * pageSize, at: 3)
            try insertList.bind(now, at: 4)
            try insertList.bind(now, at: 5)
            try insertList.run()
        }
        let pagesPerTransaction = 200
        for firstPage in stride(from: 0, to: pageCount, by: pagesPerTransaction) {
            try connection.transaction {
                for index in firstPage..<min(firstPage + pagesPerTransaction, pageCount) {
                    try insertPage.bind(index + 1, at: 1)
                    try insertPage.bind(index, at: 2)
                    try insertPage.bind(index == 0 ? nil : String(index + 1), at: 3)
                    try insertPage.bind(index + 1 < pageCount ? String(index + 2) : nil, at: 4)
                    try insertPage.bind(now, at: 5)
                    try insertPage.bind(pageSize, at: 6)
                    try insertPage.run()
                    for position in 0..<pageSize {
                        let item = ItemGenerator.item(index * pageSize + position)
                        let id = item.id.rawValue
                        try insertItem.bind(id, at: 1)
                        try insertItem.bind(itemType, at: 2)
                        try insertItem.bind(id, at: 3)
                        try insertItem.bind(try JsonProvider.encode(item), at: 4)
                        try insertItem.bind(now, at: 5)
                        try insertItem.run()
                        try insertMember.bind(index + 1, at: 1)
                        try insertMember.bind(position, at: 2)
                        try insertMember.bind(id, at: 3)
                        try insertMember.run()
                    }
                }
            }
            if (firstPage / pagesPerTransaction + 1) % 20 == 0 {
                progress.report("  wrote \(firstPage + pagesPerTransaction) of \(pageCount) pages")
            }
        }
        // Folded into the main file, so the child opens a file as a closed store leaves it.
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
