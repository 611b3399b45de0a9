import ArgumentParser
import Foundation
import SlippersSQLite
import SlippersStorage
import TableOutput

extension SlippersCommand {
    /// Prints the overall figures of the cache file.
    struct Stats: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Print the cache's figures: file size, counts, oldest and newest page, schema version, accounts.",
            discussion: """
                An existing file is opened read-only. A missing file is created and migrated first, \
                so `slippers stats --db new.sqlite` makes a new, empty cache.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func execute() async throws {
            let store: any CacheStorage =
                database.isPostgres || database.fileHasContent
                ? try await database.openStorageForReading() : try database.openCreatingIfNeeded()
            let stats = try await store.stats()
            if output.json {
                print(try JSONOutput.render(stats))
                return
            }
            let now = Date()
            func dated(_ date: Date?) -> String {
                guard let date else { return "-" }
                return "\(Formatting.date(date)) (\(Formatting.age(of: date, now: now)) ago)"
            }
            print(
                TextTable.fields([
                    ("file", stats.path),
                    ("size", Formatting.bytes(stats.fileSize)),
                    ("lists", String(stats.lists)),
                    ("pages", String(stats.pages)),
                    ("items", "\(stats.items) (\(stats.unreferencedItems) unreferenced)"),
                    ("item bytes", Formatting.bytes(stats.itemBytes)),
                    ("oldest page", dated(stats.oldestPage)),
                    ("newest page", dated(stats.newestPage)),
                    ("schema", stats.schemaVersion ?? "-"),
                    ("accounts", stats.accounts.isEmpty ? "-" : stats.accounts.joined(separator: ", ")),
                ]))
        }
    }
}
