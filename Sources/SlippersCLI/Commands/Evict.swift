import ArgumentParser
import Foundation
import SlippersSQLite
import SlippersStorage

extension SlippersCommand {
    /// Removes cached data.
    struct Evict: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove old collections, one collection, or the items no page references.",
            discussion: """
                Collections go whole, with their pages, so a list that remains never has a gap. \
                The space comes back to the file system with `slippers vacuum`.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions
        @OptionGroup var logging: LoggingOptions
        @OptionGroup var output: OutputOptions

        @Option(
            help: ArgumentHelp(
                "Remove the collections not written for this long: 90s, 30m, 12h, 7d, 2w.", valueName: "age"))
        var olderThan: Age?

        @Option(help: ArgumentHelp("Remove this collection.", valueName: "key"))
        var collection: String?

        @Flag(help: "Remove the items that no cached page references.")
        var unreferenced = false

        func validate() throws {
            let chosen = [olderThan != nil, collection != nil, unreferenced].filter { $0 }.count
            if chosen != 1 {
                throw ValidationError("Give exactly one of --older-than, --collection, --unreferenced.")
            }
        }

        func execute() async throws {
            var key: String?
            if let collection {
                key = try await database.existingCollectionKey(
                    naming: collection, account: account, logger: logging.logger)
            }
            let store = try await database.openStorageForWriting(logger: logging.logger)
            let report: EvictionReport
            if let olderThan {
                report = try await store.evict(olderThan: Date().addingTimeInterval(-olderThan.seconds))
            } else if let key {
                report = try await store.evict(collection: key)
            } else {
                report = EvictionReport(items: try await store.collectUnreferencedItems())
            }
            if output.json {
                print(try JSONOutput.render(report))
            } else {
                print(
                    "evicted \(Formatting.count(report.collections, "collection")), "
                        + "\(Formatting.count(report.pages, "page")), \(Formatting.count(report.items, "item"))")
            }
        }
    }
}
