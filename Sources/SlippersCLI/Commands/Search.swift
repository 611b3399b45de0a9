import ArgumentParser
import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import TableOutput

extension SlippersCommand {
    /// Searches the items of a cached list, offline.
    struct Search: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Search the cached items of a list, offline, most relevant first.",
            discussion: """
                Every string value of an item is searched, ignoring case and diacritics (cafe \\
                finds Café). Words are ANDed, "quoted words" are a phrase, and the last word is a \\
                prefix (mess finds message). Items with pending writes are found by their written \\
                values. Only the items of the selected account's list are searched. The first \
                search of a list's item type indexes its cached items once; from then on the index \
                is kept as pages are saved. Works on a \
                cache file and on PostgreSQL (--db postgres://…).

                With --json (or --format json), prints an array of {"id": …, "item": …} objects; \\
                --format ndjson prints one item per line, as the cache stores it.
                """)

        /// The shape of the output.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            /// A table for people.
            case table
            /// One JSON array of {"id", "item"} objects.
            case json
            /// One item per line (newline-delimited JSON).
            case ndjson
        }

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The list: its URL or key, as `slippers lists` shows it, or its item type.")
        var list: String

        @Argument(help: "What to search for.")
        var text: String

        @Option(help: "The most matches printed.")
        var limit = 20

        @Option(help: "table, json (as --json) or ndjson.")
        var format: Format?

        @Option(
            help: ArgumentHelp(
                "Search only these top-level members of the list's items, comma-separated; kept for every later "
                    + "search of its item type (\"\" for every string value again). Indexes the cached items once. "
                    + "A cache file only.",
                valueName: "members"))
        var members: String?

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit).") }
            if output.json, let format, format != .json {
                throw ValidationError("--json and --format \(format.rawValue) ask for two outputs: give one.")
            }
        }

        func execute() async throws {
            let storage = try await database.openStorageForReading()
            let key = try await storage.listKey(
                naming: list, account: try account.selection(in: storage, typed: list))
            guard let info = try await storage.list(key) else { throw CacheError.listNotFound(key: key) }
            if let members {
                let named = members.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
                let store = try database.openForWriting()
                if try store.setSearchableMembers(named, of: info.itemType) {
                    StandardError.write(
                        "indexed the cached items of this list's type for search in "
                            + (named.isEmpty ? "every string value" : named.joined(separator: ", ")))
                }
                try store.close()
            }
            let found: [RawItem]
            do {
                found = try await storage.search(text, in: .list(key), limit: limit)
            } catch let error as SQLiteCacheError where error.code == .notSearchable {
                // The list's type was never searched: its items are indexed once, which needs the file writable.
                guard let writable = try? await database.openStorageForWriting() else { throw error }
                StandardError.write("indexing the cached items of this list's type for search, once…")
                found = try await writable.search(text, in: .list(key), limit: limit)
            }
            let out = ChunkedOutput()
            switch format ?? (output.json ? .json : .table) {
            case .json:
                try out.write("[")
                for (index, item) in found.enumerated() {
                    try out.write(index == 0 ? "\n  " : ",\n  ")
                    try out.write(JSONOutput.object(["id": JSONOutput.fragment(item.key), "item": item.json]))
                }
                try out.write(found.isEmpty ? "]\n" : "\n]\n")
            case .ndjson:
                for item in found {
                    try out.write(item.json)
                    try out.write("\n")
                }
            case .table:
                var table = TextTable([
                    .init(header: "#", alignment: .right), .init(header: "id", alignment: .right),
                    .init(header: "json"),
                ])
                for (index, item) in found.enumerated() {
                    table.append([String(index + 1), item.key.commandLineText, Formatting.preview(item.json)])
                }
                try out.write(found.isEmpty ? "no item matches\n" : table.render() + "\n")
            }
            try out.flush()
        }
    }
}
