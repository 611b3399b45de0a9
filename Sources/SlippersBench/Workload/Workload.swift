import Foundation
import Slippers

/// The list every baseline and figure works on: `itemCount` items in pages of `pageSize`.
///
/// Pages are numbered from 1, as people count them ("page 2 000"). The
/// items are made once, up front, so that filling three stores does not
/// generate them three times and no timed region pays for generating them.
struct Workload: Sendable {
    let itemCount: Int
    let pageSize: Int
    private let pages: [[BenchItem]]

    /// Makes the items of a list of `itemCount` items (rounded down to whole pages).
    init(itemCount: Int, pageSize: Int = 50) {
        precondition(itemCount >= pageSize && pageSize > 0, "The workload needs at least one full page")
        self.pageSize = pageSize
        self.itemCount = itemCount / pageSize * pageSize
        pages = (0..<itemCount / pageSize).map { page in
            (page * pageSize..<(page + 1) * pageSize).map(ItemGenerator.item)
        }
    }

    var pageCount: Int { pages.count }

    /// Page numbers, first to last.
    var pageNumbers: ClosedRange<Int> { 1...pages.count }

    /// The items of page `page` (1-based), in the server's order.
    func items(page: Int) -> [BenchItem] {
        pages[page - 1]
    }

    /// Page `page` as the server's JSON bytes: `{"count": …, "next": …, "results": [...]}`.
    func serverResponse(page: Int) throws -> Data {
        let next = page < pageCount ? "https://api.example.com/items?page=\(page + 1)" : nil
        return try JsonProvider.encode(ServerResponse(count: itemCount, next: next, results: items(page: page)))
    }

    /// The page measured in round `round`: rounds walk the whole list with a large prime
    /// stride, so that a measurement reads many pages rather than one page that stays hot in caches.
    func page(forRound round: Int) -> Int {
        (round &* 7_919) % pageCount + 1
    }
}
