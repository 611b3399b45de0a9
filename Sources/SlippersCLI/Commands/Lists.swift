import ArgumentParser
import Foundation
import Slippers
import SlippersSQLite
import TableOutput

extension SlippersCommand {
    /// Lists the cached lists with their figures.
    struct Lists: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "lists",
            abstract: "List the cached lists: items, pages, total, end reached, age, whether unverified.",
            discussion: """
                The account column says whose list it is: the name --account gave, ~ and a fingerprint \
                for one derived from credentials (never the credential), anonymous for none; --account \
                or --header shows one account's lists. The end column says INCOMPLETE for a list whose end was reached with fewer items than \
                its server announced (incomplete in --json): sync --refresh walks it again; and N GAPS for a \
                feed whose refresh left places where the server has items no page holds (gaps in --json): \
                the app's list fills them as they are shown.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions
        @OptionGroup var output: OutputOptions

        func execute() async throws {
            let store = try await database.openStorageForReading()
            let selection = try account.selection(in: store)
            let lists = try await store.lists().filter { selection.admits($0.account) }
            if output.json {
                print(try JSONOutput.render(lists))
                return
            }
            var table = TextTable([
                .init(header: "list"), .init(header: "account"), .init(header: "type"),
                .init(header: "items", alignment: .right), .init(header: "pages", alignment: .right),
                .init(header: "total", alignment: .right), .init(header: "end"),
                .init(header: "age", alignment: .right), .init(header: "unverified"),
            ])
            let now = Date()
            for list in lists {
                table.append([
                    ListKey(parsing: list.key).forAccount(.anonymous).description,
                    list.account.description,
                    ListKey.account(ofItemType: list.itemType).itemType, String(list.itemCount),
                    String(list.pageCount),
                    Formatting.number(list.total),
                    list.gapCount > 0
                        ? "\(list.gapCount) GAP\(list.gapCount == 1 ? "" : "S")"
                        : list.isIncomplete ? "INCOMPLETE" : Formatting.yesNo(list.endReached),
                    Formatting.age(of: list.lastFetchedAt ?? list.createdAt, now: now),
                    Formatting.yesNo(list.isUnverified),
                ])
            }
            print(table.render())
        }
    }
}
