import ArgumentParser
import Foundation
import Slippers
import SlippersSQLite
import TableOutput

extension SlippersCommand {
    /// Lists the cached collections with their figures.
    struct Collections: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the cached collections: items, pages, total, end reached, age, whether unverified.",
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
            let collections = try await store.collections().filter { selection.admits($0.account) }
            if output.json {
                print(try JSONOutput.render(collections))
                return
            }
            var table = TextTable([
                .init(header: "collection"), .init(header: "account"), .init(header: "type"),
                .init(header: "items", alignment: .right), .init(header: "pages", alignment: .right),
                .init(header: "total", alignment: .right), .init(header: "end"),
                .init(header: "age", alignment: .right), .init(header: "unverified"),
            ])
            let now = Date()
            for collection in collections {
                table.append([
                    CollectionKey(parsing: collection.key).forAccount(.anonymous).description,
                    collection.account.description,
                    CollectionKey.account(ofItemType: collection.itemType).itemType, String(collection.itemCount),
                    String(collection.pageCount),
                    Formatting.number(collection.total),
                    collection.gapCount > 0
                        ? "\(collection.gapCount) GAP\(collection.gapCount == 1 ? "" : "S")"
                        : collection.isIncomplete ? "INCOMPLETE" : Formatting.yesNo(collection.endReached),
                    Formatting.age(of: collection.lastFetchedAt ?? collection.createdAt, now: now),
                    Formatting.yesNo(collection.isUnverified),
                ])
            }
            print(table.render())
        }
    }
}
