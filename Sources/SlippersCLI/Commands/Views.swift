import ArgumentParser
import Foundation
import SlippersSQLite
import SlippersStorage
import TableOutput

extension SlippersCommand {
    /// Lists the SQL views of the cached item types.
    struct Views: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "views",
            abstract: "List the read-only SQL view of each cached item type, its columns and the SQL it runs.",
            discussion: """
                Each item type has a view named after it (posts for posts@https://api.example.com), \\
                one row per item, one column per member (nested objects flattened one level, as \\
                author_name), plus cache_account (NULL for the anonymous account) and cache_key. \\
                sqlite3, Datasette or any SQL tool reads them: \\
                sqlite3 slippers.sqlite 'SELECT title FROM posts LIMIT 5'. Saving a page keeps its \\
                type's view current; --rebuild rescans every item first (the file is opened for writing).

                With --json, prints an array of {"name", "itemTypes", "columns", "sql"} objects; each column has \
                its name, the member path it reads and its type (null when the values differ).
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        @Flag(help: "Rescan every cached item's members and make the views agree first.")
        var rebuild = false

        func execute() async throws {
            if rebuild { try database.openForWriting().rebuildItemViews() }
            let views = try database.openForReading().itemViews()
            if output.json {
                print(try JSONOutput.render(views))
                return
            }
            guard !views.isEmpty else {
                print("no view: no cached item is a JSON object yet")
                return
            }
            var table = TextTable([.init(header: "view"), .init(header: "columns"), .init(header: "sql")])
            for view in views {
                let columns = [ItemView.accountColumn, ItemView.keyColumn] + view.columns.map(\.name)
                table.append([view.name, columns.joined(separator: ", "), view.sql])
            }
            print(table.render())
        }
    }
}
