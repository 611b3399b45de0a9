import Foundation
import Slippers
import SlippersSQLite

/// Fills a cache with a list of generated items, page by page, through the cache's own API.
///
/// Items come from ``ItemGenerator`` one page at a time, so a list of
/// 500 000 items never holds more than one page in memory. Each page is saved
/// with ``Repository/save(_:at:in:now:)``, as pages fetched one after the other are.
enum GeneratedList {
    /// Saves `pageCount` pages of `pageSize` generated items as list `key` of `repository`.
    ///
    /// - parameter progress: Told every 2 000 pages, so a long fill shows it is alive.
    static func fill(
        _ repository: Repository<BenchItem>, key: String, pageCount: Int, pageSize: Int, progress: Progress
    ) throws {
        for index in 0..<pageCount {
            let items = (index * pageSize..<(index + 1) * pageSize).map(ItemGenerator.item)
            let next = index + 1 < pageCount ? PageToken(rawValue: String(index + 2)) : nil
            let page = Page(
                items: items, token: index == 0 ? nil : PageToken(rawValue: String(index + 1)), nextToken: next,
                total: pageCount * pageSize)
            try repository.save(page, at: index, in: key)
            if (index + 1) % 2_000 == 0 { progress.report("  saved \(index + 1) of \(pageCount) pages") }
        }
    }
}
