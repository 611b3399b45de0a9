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
        var style: String?
        var itemCount: Int
        var pageCount: Int
        var stalePageCount: Int
        var total: Int?
        var endReached: Bool
        var resumeToken: String?
        var nextPageIndex: Int
        var generation: Int
        var stale: Bool
        var createdAt: Date
        var refreshedAt: Date?
        var invalidatedAt: Date?
        var lastFetchedAt: Date?

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

        enum CodingKeys: CodingKey {
            case key, itemType, style, itemCount, pageCount, stalePageCount, total, endReached, resumeToken
            case nextPageIndex, generation, stale, createdAt, refreshedAt, invalidatedAt, lastFetchedAt
        }

        // Written out so that absent values are `null` rather than missing keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(itemType, forKey: .itemType)
            try container.encode(style, forKey: .style)
            try container.encode(itemCount, forKey: .itemCount)
            try container.encode(pageCount, forKey: .pageCount)
            try container.encode(stalePageCount, forKey: .stalePageCount)
            try container.encode(total, forKey: .total)
            try container.encode(endReached, forKey: .endReached)
            try container.encode(resumeToken, forKey: .resumeToken)
            try container.encode(nextPageIndex, forKey: .nextPageIndex)
            try container.encode(generation, forKey: .generation)
            try container.encode(stale, forKey: .stale)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(refreshedAt, forKey: .refreshedAt)
            try container.encode(invalidatedAt, forKey: .invalidatedAt)
            try container.encode(lastFetchedAt, forKey: .lastFetchedAt)
        }
    }
}
