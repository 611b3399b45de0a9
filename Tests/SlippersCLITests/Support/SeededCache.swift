import Foundation
import GRDB
import Slippers
import SlippersSQLite
import SlippersStorage

/// A cache file with known content, written with the cache itself.
///
/// - `GET /posts` (type `Post`): pages 0, 1, 2 of ids 1–50, 51–100, 101–150, end reached, total 150.
/// - `GET /users` (type `User`): one page of the string ids `u1`, `u2`, `u3`, more to fetch, no total.
enum SeededCache {
    static let posts = ListDescriptor(key: "GET /posts", itemType: "Post", style: "page")
    static let users = ListDescriptor(key: "GET /users", itemType: "User", style: "cursor")

    /// The stored bytes of post `id`.
    static func postJSON(_ id: Int) -> Data {
        Data(#"{"id":\#(id),"title":"Post \#(id)"}"#.utf8)
    }

    /// The stored bytes of user `id`.
    static func userJSON(_ id: String) -> Data {
        Data(#"{"id":"\#(id)","name":"User \#(id)"}"#.utf8)
    }

    /// Writes the seeded lists into a new cache at `path`.
    ///
    /// - parameter postsFetchedAt: When the posts' pages were fetched (to test eviction by age).
    @discardableResult
    static func write(at path: String, postsFetchedAt: Date = Date()) throws -> SQLiteCache {
        let store = try SQLiteCache(path: path)
        for page in 0..<3 {
            let ids = (page * 50 + 1)...(page * 50 + 50)
            try store.savePage(
                Page(
                    items: ids.map { RawItem(key: .integer($0), json: postJSON($0)) },
                    token: page == 0 ? nil : PageToken(page + 1),
                    nextToken: page == 2 ? nil : PageToken(page + 2),
                    total: 150,
                    validators: PageValidators(etag: "\"posts-\(page)\"")),
                at: page, in: posts, now: postsFetchedAt)
        }
        try store.savePage(
            Page(
                items: ["u1", "u2", "u3"].map { RawItem(key: .string($0), json: userJSON($0)) }, nextToken: "cursor-abc"
            ),
            at: 0, in: users)
        try store.close()
        return store
    }

    /// Marks `path` as migrated by a newer Slippers: a migration this build does not know.
    static func addUnknownMigration(at path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('9999_from_the_future')")
        }
        try queue.close()
    }

    /// Runs `sql` on the file directly, bypassing the cache and its foreign keys (to damage it on purpose).
    static func execute(_ sql: String, at path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }
}
