import Foundation
import LocalAPI
import Slippers

/// Makes item `i` of the workload, the same on every run and every machine.
///
/// Text comes from a fixed word list picked by a SplitMix64 sequence seeded
/// with the item's index, so any item can be made on its own (a depth figure
/// needs item 499 950 without making the 499 949 before it) and two runs
/// compare the same bytes.
enum ItemGenerator {
    /// Item `index` (0-based); its id is `index + 1`, as servers count.
    static func item(_ index: Int) -> BenchItem {
        var random = SplitMix64(seed: UInt64(index))
        return BenchItem(
            id: ID(index + 1),
            title: sentence(length: 40, using: &random),
            body: sentence(length: 300, using: &random),
            // Milliseconds, so the value survives the ISO 8601 round trip unchanged.
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 61.25),
            score: Int(random.next() % 10_000),
            author: BenchItem.Author(id: ID(Int(random.next() % 500) + 1), name: authorName(using: &random)),
            tags: (0..<3).map { _ in tags[Int(random.next() % UInt64(tags.count))] }
        )
    }

    private static func sentence(length: Int, using random: inout SplitMix64) -> String {
        var text = ""
        text.reserveCapacity(length + 12)
        while text.count < length {
            if !text.isEmpty { text += " " }
            text += words[Int(random.next() % UInt64(words.count))]
        }
        return text
    }

    private static func authorName(using random: inout SplitMix64) -> String {
        firstNames[Int(random.next() % UInt64(firstNames.count))] + " "
            + lastNames[Int(random.next() % UInt64(lastNames.count))]
    }

    private static let words = [
        "cache", "page", "offline", "sqlite", "swift", "network", "refresh", "token", "cursor", "item",
        "store", "fetch", "decode", "encode", "latency", "journal", "index", "query", "server", "client",
        "résumé", "naïve", "über", "stale", "fresh", "window", "scroll", "list", "row", "column",
    ]
    private static let tags = ["swift", "sqlite", "json", "paging", "cache", "linux", "ios", "server", "perf", "ui"]
    private static let firstNames = ["Ada", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances"]
    private static let lastNames = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson"]
}
