import ArgumentParser
import Foundation
import SlippersStore

extension SlippersCommand {
    /// Lists the cached collections with their figures.
    struct Collections: ReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the cached collections: items, pages, total, end reached, age, staleness.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func execute() throws {
            let store = try database.openForReading()
            let collections = try store.collections()
            if output.json {
                print(try JSONOutput.render(collections.map(Record.init)))
                return
            }
            var table = Table([
                .init(header: "collection"), .init(header: "type"),
                .init(header: "items", alignment: .right), .init(header: "pages", alignment: .right),
                .init(header: "total", alignment: .right), .init(header: "end"),
                .init(header: "age", alignment: .right), .init(header: "stale"),
            ])
            let now = Date()
            for collection in collections {
                table.append([
                    collection.key, collection.itemType, String(collection.itemCount), String(collection.pageCount),
                    Formatting.number(collection.total), Formatting.yesNo(collection.endReached),
                    Formatting.age(of: collection.lastFetchedAt ?? collection.createdAt, now: now),
                    Formatting.yesNo(collection.isStale),
                ])
            }
            print(table.render())
        }
    }
}

extension SlippersCommand.Collections {
    /// One collection in `--json` output.
    struct Record: Encodable {
        var key: String
        var itemType: String
        @NullWhenAbsent var style: String?
        var itemCount: Int
        var pageCount: Int
        var stalePageCount: Int
        @NullWhenAbsent var total: Int?
        var endReached: Bool
        @NullWhenAbsent var resumeToken: String?
        var nextPageIndex: Int
        var generation: Int
        var stale: Bool
        var createdAt: Date
        @NullWhenAbsent var refreshedAt: Date?
        @NullWhenAbsent var invalidatedAt: Date?
        @NullWhenAbsent var lastFetchedAt: Date?

        init(_ collection: CollectionInfo) {
            key = collection.key
            itemType = collection.itemType
            style = collection.style
            itemCount = collection.itemCount
            pageCount = collection.pageCount
            stalePageCount = collection.stalePageCount
            total = collection.total
            endReached = collection.endReached
            resumeToken = collection.resumeToken?.rawValue
            nextPageIndex = collection.nextPageIndex
            generation = collection.generation
            stale = collection.isStale
            createdAt = collection.createdAt
            refreshedAt = collection.refreshedAt
            invalidatedAt = collection.invalidatedAt
            lastFetchedAt = collection.lastFetchedAt
        }
    }
}
