import Foundation
import GRDB
import SlippersTestSupport
import Testing

@testable import SlippersSQLite

@Suite struct SchemaTests {
    /// The package's `Migrations/` directory, found from this source file.
    private static let migrationsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Migrations")

    @Test func theBinaryAppliesEveryMigrationFileInOrder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsDirectory.path)
            .filter { $0.hasSuffix(".sql") }.sorted().map { String($0.dropLast(4)) }
        #expect(!files.isEmpty)
        let directory = try TemporaryDirectory()
        let diagnosis = try SQLiteCache(path: directory.path()).diagnose()
        #expect(diagnosis.appliedMigrations == files)
        #expect(diagnosis.knownMigrations == files)
        #expect(diagnosis.isHealthy)
    }

    @Test func theSchemaHasTheTablesOfTheDesign() throws {
        let directory = try TemporaryDirectory()
        try SQLiteCache(path: directory.path()).close()
        let queue = try DatabaseQueue(path: directory.path())
        let tables = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(
            tables == [
                "collections", "gaps", "grdb_migrations", "item_members", "item_search", "item_search_config",
                "item_search_data", "item_search_idx", "item_server_copies", "item_views", "items", "open_lists",
                "outbox", "page_items", "pages", "search_types", "settings", "watermarks",
            ])
    }

    @Test func aNewFileHasTheSchemaTheMigratorMakesOneMigrationAtATime() throws {
        let directory = try TemporaryDirectory()
        try SQLiteCache(path: directory.path("new.sqlite")).close()
        let migrated = try DatabaseQueue(path: directory.path("migrated.sqlite"))
        try Schema.migrator.migrate(migrated)
        let new = try DatabaseQueue(path: directory.path("new.sqlite"))
        func schema(_ queue: DatabaseQueue) throws -> [Row] {
            try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
            }
        }
        #expect(try schema(new) == schema(migrated))
        #expect(try !schema(new).isEmpty)
        let identifiers = "SELECT identifier FROM grdb_migrations ORDER BY rowid"
        #expect(
            try new.read { try String.fetchAll($0, sql: identifiers) }
                == migrated.read { try String.fetchAll($0, sql: identifiers) })
        #expect(try new.read { try Schema.migrator.hasCompletedMigrations($0) })
        try new.close()
        try migrated.close()
    }

    /// A database as the first two migrations left it, filled by `fill`.
    private static func databaseBeforeItemsPerOrigin(at path: String, _ fill: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for name in ["0001_create_cache", "0002_index_pages_by_generation"] {
                let url = migrationsDirectory.appendingPathComponent(name + ".sql")
                try db.execute(sql: String(contentsOf: url, encoding: .utf8))
                try db.execute(sql: "INSERT INTO grdb_migrations VALUES (?)", arguments: [name])
            }
            try db.execute(sql: fill)
        }
        try queue.close()
    }

    @Test func itemsSharedByTwoOriginsAreSplitPerOriginWithoutLoss() throws {
        let directory = try TemporaryDirectory()
        try Self.databaseBeforeItemsPerOrigin(
            at: directory.path(),
            """
            INSERT INTO collections (id, key, item_type, created_at, generation, end_reached) VALUES
                (1, 'http://a.example/ids', 'ids', 0, 1, 1),
                (2, 'http://b.example:8080/ids', 'ids', 0, 1, 1),
                (3, 'http://a.example/users/1/posts', 'Post', 0, 1, 1),
                (4, 'http://a.example/posts', 'Post', 0, 1, 1);
            INSERT INTO items (id, type, key, json, updated_at) VALUES
                (1, 'ids', 1, '{"id":1,"host":"b"}', 0),
                (2, 'ids', 2, '{"id":2,"host":"a"}', 0),
                (3, 'ids', 3, '{"id":3,"host":"b"}', 0),
                (4, 'Post', 7, '{"id":7}', 0);
            INSERT INTO pages (id, collection_id, idx, generation, fetched_at, item_count) VALUES
                (1, 1, 0, 1, 0, 2), (2, 2, 0, 1, 0, 2), (3, 3, 0, 1, 0, 1), (4, 4, 0, 1, 0, 1);
            INSERT INTO page_items (page_id, position, item_id) VALUES
                (1, 0, 1), (1, 1, 2), (2, 0, 1), (2, 1, 3), (3, 0, 4), (4, 0, 4);
            """)
        let store = try SQLiteCache(path: directory.path())
        let lists = try store.lists()
        #expect(
            lists.map(\.itemType) == [
                "ids@http://a.example", "Post", "Post", "ids@http://b.example:8080",
            ])
        #expect(
            lists.map(\.key) == [
                "http://a.example/ids", "http://a.example/posts", "http://a.example/users/1/posts",
                "http://b.example:8080/ids",
            ])
        let a = try #require(try store.cachedList("http://a.example/ids"))
        let b = try #require(try store.cachedList("http://b.example:8080/ids"))
        #expect(a.items.map(\.key) == [.integer(1), .integer(2)])
        #expect(b.items.map(\.key) == [.integer(1), .integer(3)])
        #expect(a.items.map(\.json) == [Data(#"{"id":1,"host":"b"}"#.utf8), Data(#"{"id":2,"host":"a"}"#.utf8)])
        // The old shared rows were copied, then removed: no item of type "ids" is left over.
        #expect(try store.item(type: "ids", key: .integer(1)) == nil)
        #expect(try store.stats().items == 5)
        // A type named on purpose by two lists of one origin still shares its row.
        #expect(try store.item(type: "Post", key: .integer(7)) != nil)
        #expect(try store.diagnose().isHealthy)
    }

    @Test func aPageThatListedAnIDTwiceListsItOnceAfterTheMigration() throws {
        let directory = try TemporaryDirectory()
        try Self.databaseBeforeItemsPerOrigin(
            at: directory.path(),
            """
            INSERT INTO collections (id, key, item_type, created_at, generation, resume_token) VALUES
                (1, 'GET /posts', 'Post', 0, 1, 'p2');
            INSERT INTO items (id, type, key, json, updated_at) VALUES
                (1, 'Post', 1, '{"id":1}', 0), (2, 'Post', 2, '{"id":2}', 0), (3, 'Post', 3, '{"id":3}', 0);
            INSERT INTO pages (id, collection_id, idx, generation, next_token, fetched_at, item_count) VALUES
                (1, 1, 0, 1, 'p2', 0, 5);
            INSERT INTO page_items (page_id, position, item_id) VALUES
                (1, 0, 1), (1, 1, 2), (1, 2, 1), (1, 3, 3), (1, 4, 2);
            """)
        let store = try SQLiteCache(path: directory.path())
        let page = try #require(try store.page(at: 0, in: "GET /posts"))
        #expect(page.items.map(\.key) == [.integer(1), .integer(2), .integer(3)])
        #expect(page.info.itemCount == 3)
        #expect(
            try store.page(at: 0, in: "GET /posts", positions: 1..<3)?.items.map(\.key) == [.integer(2), .integer(3)])
        #expect(try store.list("GET /posts")?.itemCount == 3)
        #expect(try store.diagnose().isHealthy)
    }
}
