import ArgumentParser
import Foundation
import SlippersSQLite
import SlippersStorage
import TableOutput

extension SlippersCommand {
    /// Lists the cached pages of one list.
    struct Pages: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "pages",
            abstract: """
                List the cached pages of a list: index, generation, items, age, freshness \
                (verified, lifetime, validator), tokens, whether superseded, and a feed's gaps: places \
                after the page's items where the server has items no page holds (`slippers sync` fills them).
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The list's key, as `slippers lists` shows it.")
        var list: String

        func execute() async throws {
            let store = try await database.openStorageForReading()
            let pages = try await store.pages(
                in: try await store.listKey(
                    naming: list, account: try account.selection(in: store, typed: list)))
            if output.json {
                print(try JSONOutput.render(pages))
                return
            }
            var table = TextTable([
                .init(header: "page", alignment: .right), .init(header: "gen", alignment: .right),
                .init(header: "items", alignment: .right), .init(header: "age", alignment: .right),
                .init(header: "verified", alignment: .right), .init(header: "lifetime", alignment: .right),
                .init(header: "validator"), .init(header: "token"), .init(header: "next"), .init(header: "etag"),
                .init(header: "superseded"), .init(header: "gaps", alignment: .right),
            ])
            let now = Date()
            for page in pages {
                table.append([
                    String(page.index), String(page.generation), String(page.itemCount),
                    Formatting.age(of: page.fetchedAt, now: now),
                    page.isUnverified ? "unverified" : Formatting.age(of: page.verifiedAt, now: now),
                    Self.lifetime(page, now: now), page.validatorKind.rawValue,
                    Formatting.truncated(page.token?.rawValue ?? "-", to: 40),
                    Formatting.truncated(page.nextToken?.rawValue ?? "-", to: 40),
                    Formatting.truncated(page.validators.etag ?? "-", to: 24),
                    Formatting.yesNo(page.isSuperseded), page.gapCount > 0 ? String(page.gapCount) : "-",
                ])
            }
            print(table.render())
        }

        /// The page's lifetime and whether it is still fresh: `60s (fresh)`, `no-cache`, `-` when unknown.
        static func lifetime(_ page: PageInfo, now: Date) -> String {
            if page.requiresRevalidation { return "no-cache" }
            guard let lifetime = page.lifetime else { return "-" }
            return Formatting.age(lifetime) + (page.isFresh(at: now) ? " (fresh)" : " (expired)")
        }
    }
}
