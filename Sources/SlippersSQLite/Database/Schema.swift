import GRDB

/// The cache's schema: the numbered SQL files of `Migrations/`, embedded at build time.
enum Schema {
    /// The migrator that applies every embedded migration, in order, each in its own transaction.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        for migration in EmbeddedMigrations.all {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
            }
        }
        return migrator
    }()

    /// Makes the whole schema in a new, empty database: every migration, recorded as the migrator
    /// records it, in one transaction (the migrator's one per migration cost a new file a journal
    /// and a schema reload each). A file made so is the file the migrator makes, for the
    /// migrator and for every later migration.
    static func createAll(in queue: DatabaseQueue) throws {
        try queue.inTransaction(.immediate) { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for migration in EmbeddedMigrations.all {
                try db.execute(sql: migration.sql)
                try db.execute(
                    sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            }
            return .commit
        }
    }

    /// The identifiers of the migrations this build knows, in order.
    static var knownMigrations: [String] { migrator.migrations }
}
