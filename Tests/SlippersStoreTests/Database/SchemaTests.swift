import Foundation
import GRDB
import SlippersStore
import SlippersTestSupport
import Testing

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
        let diagnosis = try CacheStore(path: directory.path()).diagnose()
        #expect(diagnosis.appliedMigrations == files)
        #expect(diagnosis.knownMigrations == files)
        #expect(diagnosis.isHealthy)
    }

    @Test func theSchemaHasTheTablesOfTheDesign() throws {
        let directory = try TemporaryDirectory()
        try CacheStore(path: directory.path()).close()
        let queue = try DatabaseQueue(path: directory.path())
        let tables = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["collections", "grdb_migrations", "items", "page_items", "pages"])
    }
}
