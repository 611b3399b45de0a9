import ArgumentParser
import Foundation
import Slippers
import SlippersSQLite

extension SlippersCommand {
    /// Writes a list's items to standard output.
    struct Export: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a list's items, in list order and each id once, to standard output.",
            discussion: """
                Each item is written as the bytes the cache holds, never re-encoded; ndjson \
                drops the whitespace between tokens, so an item a server pretty-printed is one \
                line. Items are streamed from the database: memory stays bounded however long the list.

                csv: a header row of every column, then one row per item (RFC 4180, CRLF line \
                ends). Nested objects become dotted columns (author.name), arrays stay JSON text in \
                one cell, null and missing values are empty cells.
                """)

        /// The shape of the output.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            /// One JSON array.
            case json
            /// One item per line (newline-delimited JSON), each compacted onto its line.
            case ndjson
            /// A header row, then one row per item, nested objects flattened into dotted columns.
            case csv
        }

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions

        @Argument(help: "The list's key, as `slippers lists` shows it.")
        var list: String

        @Option(help: "json: one array; ndjson: one item per line; csv: a header row, then one row per item.")
        var format: Format = .json

        func execute() async throws {
            let store = try await database.openStorageForReading()
            let list = try await store.listKey(
                naming: list, account: try account.selection(in: store, typed: list))
            let out = ChunkedOutput()
            switch format {
            case .json:
                var first = true
                try await store.forEachItem(in: list) { item in
                    try out.write(first ? "[\n" : ",\n")
                    first = false
                    try out.write(item.json)
                }
                try out.write(first ? "[]\n" : "\n]\n")
            case .ndjson:
                let newline = Data("\n".utf8)
                try await store.forEachItem(in: list) { item in
                    try out.write(JsonProvider.compacted(item.json))
                    try out.write(newline)
                }
            case .csv:
                try await store.writeCSV(of: list) { try out.write($0) }
            }
            try out.flush()
        }
    }
}
