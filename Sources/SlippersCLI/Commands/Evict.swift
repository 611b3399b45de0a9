import ArgumentParser
import Foundation
import SlippersSQLite
import SlippersStorage

extension SlippersCommand {
    /// Removes cached data.
    struct Evict: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "evict",
            abstract: "Remove old lists, one list, or the items no page references.",
            discussion: """
                Lists go whole, with their pages, so a list that remains never has a gap. \
                The space comes back to the file system with `slippers vacuum`.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions
        @OptionGroup var logging: LoggingOptions
        @OptionGroup var output: OutputOptions

        @Option(
            help: ArgumentHelp(
                "Remove the lists not written for this long: 90s, 30m, 12h, 7d, 2w.", valueName: "age"))
        var olderThan: Age?

        @Option(help: ArgumentHelp("Remove this list.", valueName: "key"))
        var list: String?

        @Flag(help: "Remove the items that no cached page references.")
        var unreferenced = false

        func validate() throws {
            let chosen = [olderThan != nil, list != nil, unreferenced].filter { $0 }.count
            if chosen != 1 {
                throw ValidationError("Give exactly one of --older-than, --list, --unreferenced.")
            }
        }

        func execute() async throws {
            var key: String?
            if let list {
                key = try await database.existingListKey(
                    naming: list, account: account, logger: logging.logger)
            }
            let store = try await database.openStorageForWriting(logger: logging.logger)
            let report: EvictionReport
            if let olderThan {
                report = try await store.evict(olderThan: Date().addingTimeInterval(-olderThan.seconds))
            } else if let key {
                report = try await store.evict(list: key)
            } else {
                report = EvictionReport(items: try await store.collectUnreferencedItems())
            }
            if output.json {
                print(try JSONOutput.render(report))
            } else {
                print(
                    "evicted \(Formatting.count(report.lists, "list")), "
                        + "\(Formatting.count(report.pages, "page")), \(Formatting.count(report.items, "item"))")
            }
        }
    }
}
