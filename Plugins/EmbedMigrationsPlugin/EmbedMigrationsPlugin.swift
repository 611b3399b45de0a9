import Foundation
import PackagePlugin

/// Embeds the package's `Migrations/*.sql` files into the target as Swift source; for
/// `SlippersPostgres`, PostgreSQL's, `Migrations/postgres/*.sql`.
///
/// The schema then travels inside the binary: a `slippers` executable copied
/// alone to another machine still creates and migrates a database, with no
/// resource bundle to find at run time.
@main
struct EmbedMigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        var directory = context.package.directoryURL.appending(path: "Migrations")
        if target.name == "SlippersPostgres" { directory = directory.appending(path: "postgres") }
        let files = try FileManager.default
            .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) SQL migrations",
                executable: try context.tool(named: "EmbedMigrations").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
