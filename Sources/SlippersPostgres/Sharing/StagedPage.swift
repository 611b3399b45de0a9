import Foundation
import Slippers

/// A page as a worker stages it for the lease holder: every fact the cache saves of it.
struct StagedPage: Codable {
    /// An item: its key and its JSON bytes, as the server sent them.
    struct Item: Codable {
        var key: ItemKey
        var json: Data
    }

    var items: [Item]
    var token: PageToken?
    var nextToken: PageToken?
    var total: Int?
    var pageCount: Int?
    var validators: PageValidators
    var caching: PageCaching

    init(_ page: Page<RawItem>) {
        items = page.items.map { Item(key: $0.key, json: $0.json) }
        token = page.token
        nextToken = page.nextToken
        total = page.total
        pageCount = page.pageCount
        validators = page.validators
        caching = page.caching
    }

    /// The page again.
    var page: Page<RawItem> {
        Page(
            items: items.map { RawItem(key: $0.key, json: $0.json) }, token: token, nextToken: nextToken,
            total: total, validators: validators, caching: caching, pageCount: pageCount)
    }

    /// The page's bytes in the database.
    static func encoded(_ page: Page<RawItem>) throws -> Data {
        try JSONEncoder().encode(StagedPage(page))
    }

    /// A page from its bytes in the database.
    static func decoded(_ data: Data) throws -> Page<RawItem> {
        try JSONDecoder().decode(StagedPage.self, from: data).page
    }
}
