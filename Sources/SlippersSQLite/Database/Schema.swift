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

    /// The identifiers of the migrations this build knows, in order.
    static var knownMigrations: [String] { migrator.migrations }
}
