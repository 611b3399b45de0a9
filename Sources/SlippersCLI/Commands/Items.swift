import ArgumentParser
import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import TableOutput

extension SlippersCommand {
    /// Lists the items of a list, or of one of its pages.
    struct Items: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "items",
            abstract: "List the items of a list in list order, each id once, or the items of one page.",
            discussion: """
                With --json, prints an array of {"id": …, "item": …} objects, each item's JSON \
                exactly as the cache stores it.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The list's key, as `slippers lists` shows it.")
        var list: String

        @Option(help: ArgumentHelp("Only the items of this page (from 0).", valueName: "index"))
        var page: Int?

        func validate() throws {
            if let page, page < 0 { throw ValidationError("--page must be 0 or more, not \(page).") }
        }

        func execute() async throws {
            let store = try await database.openStorageForReading()
            if output.json {
                let out = ChunkedOutput()
                var first = true
                try out.write("[")
                try await forEachItem(in: store) { item in
                    try out.write(first ? "\n  " : ",\n  ")
                    first = false
                    try out.write(JSONOutput.object(["id": JSONOutput.fragment(item.key), "item": item.json]))
                }
                try out.write(first ? "]\n" : "\n]\n")
                try out.flush()
                return
            }
            var table = TextTable([
                .init(header: "#", alignment: .right), .init(header: "id", alignment: .right),
                .init(header: "bytes", alignment: .right), .init(header: "json"),
            ])
            try await forEachItem(in: store) { item in
                table.append([
                    String(table.rows.count), item.key.commandLineText, String(item.json.count),
                    Formatting.preview(item.json),
                ])
            }
            print(table.render())
        }

        /// Calls `body` with the items asked for: one page's, or the whole list's, streamed.
        private func forEachItem(in store: any CacheStorage, _ body: (RawItem) throws -> Void) async throws {
            let list = try await store.listKey(
                naming: list, account: try account.selection(in: store, typed: list))
            guard let page else {
                try await store.forEachItem(in: list, body)
                return
            }
            guard let info = try await store.list(list) else {
                throw CacheError.listNotFound(key: list)
            }
            guard let stored = try await store.page(at: page, in: list) else {
                throw CommandFailure.pageNotCached(index: page, list: list, pageCount: info.pageCount)
            }
            try stored.items.forEach(body)
        }
    }
}
