import ArgumentParser
import Foundation
import SlippersStore

extension SlippersCommand {
    /// Prints the overall figures of the cache file.
    struct Stats: ReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the cache's figures: file size, counts, oldest and newest page, schema version.",
            discussion: """
                An existing file is opened read-only. A missing file is created and migrated first, \
                so `slippers stats --db new.sqlite` makes a new, empty cache.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func execute() throws {
            let store = try database.fileHasContent ? database.openForReading() : database.openCreatingIfNeeded()
            let stats = try store.stats()
            if output.json {
                print(try JSONOutput.render(Record(stats)))
                return
            }
            let now = Date()
            func dated(_ date: Date?) -> String {
                guard let date else { return "-" }
                return "\(Formatting.date(date)) (\(Formatting.age(of: date, now: now)) ago)"
            }
            print(
                Table.fields([
                    ("file", stats.path),
                    ("size", Formatting.bytes(stats.fileSize)),
                    ("collections", String(stats.collections)),
                    ("pages", String(stats.pages)),
                    ("items", "\(stats.items) (\(stats.unreferencedItems) unreferenced)"),
                    ("item bytes", Formatting.bytes(stats.itemBytes)),
                    ("oldest page", dated(stats.oldestPage)),
                    ("newest page", dated(stats.newestPage)),
                    ("schema", stats.schemaVersion ?? "-"),
                ]))
        }
    }
}

extension SlippersCommand.Stats {
    /// The figures in `--json` output.
    struct Record: Encodable {
        var stats: StoreStats

        init(_ stats: StoreStats) {
            self.stats = stats
        }

        enum CodingKeys: CodingKey {
            case path, fileSize, collections, pages, items, unreferencedItems, itemBytes
            case oldestPage, newestPage, schemaVersion
        }

        // Written out so that absent values are `null` rather than missing keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(stats.path, forKey: .path)
            try container.encode(stats.fileSize, forKey: .fileSize)
            try container.encode(stats.collections, forKey: .collections)
            try container.encode(stats.pages, forKey: .pages)
            try container.encode(stats.items, forKey: .items)
            try container.encode(stats.unreferencedItems, forKey: .unreferencedItems)
            try container.encode(stats.itemBytes, forKey: .itemBytes)
            try container.encode(stats.oldestPage, forKey: .oldestPage)
            try container.encode(stats.newestPage, forKey: .newestPage)
            try container.encode(stats.schemaVersion, forKey: .schemaVersion)
        }
    }
}
