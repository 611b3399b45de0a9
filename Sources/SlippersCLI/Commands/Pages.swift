import ArgumentParser
import Foundation
import SlippersStore

extension SlippersCommand {
    /// Lists the cached pages of one collection.
    struct Pages: ReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the cached pages of a collection: index, generation, items, age, tokens, staleness.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The collection's key, as `slippers collections` lists it.")
        var collection: String

        func execute() throws {
            let store = try database.openForReading()
            let pages = try store.pages(in: collection)
            if output.json {
                print(try JSONOutput.render(pages.map(Record.init)))
                return
            }
            var table = Table([
                .init(header: "page", alignment: .right), .init(header: "gen", alignment: .right),
                .init(header: "items", alignment: .right), .init(header: "age", alignment: .right),
                .init(header: "token"), .init(header: "next"), .init(header: "etag"), .init(header: "stale"),
            ])
            let now = Date()
            for page in pages {
                table.append([
                    String(page.index), String(page.generation), String(page.itemCount),
                    Formatting.age(of: page.fetchedAt, now: now),
                    Formatting.truncated(page.token?.rawValue ?? "-", to: 40),
                    Formatting.truncated(page.nextToken?.rawValue ?? "-", to: 40),
                    Formatting.truncated(page.validators.etag ?? "-", to: 24),
                    Formatting.yesNo(page.isStale),
                ])
            }
            print(table.render())
        }
    }
}

extension SlippersCommand.Pages {
    /// One page in `--json` output.
    struct Record: Encodable {
        var index: Int
        var generation: Int
        var itemCount: Int
        @NullWhenAbsent var token: String?
        @NullWhenAbsent var nextToken: String?
        @NullWhenAbsent var etag: String?
        @NullWhenAbsent var lastModified: String?
        var fetchedAt: Date
        var stale: Bool

        init(_ page: PageInfo) {
            index = page.index
            generation = page.generation
            itemCount = page.itemCount
            token = page.token?.rawValue
            nextToken = page.nextToken?.rawValue
            etag = page.validators.etag
            lastModified = page.validators.lastModified
            fetchedAt = page.fetchedAt
            stale = page.isStale
        }
    }
}
