import Foundation
import Slippers
import SlippersStorage

/// A cached page whose rows are read at once and whose items are decoded when asked for.
///
/// Reading a page's rows from SQLite costs a small fraction of decoding its
/// JSON. A screen that shows the first rows of a page can decode those first
/// and the rest afterwards (or never, if the user scrolls away):
///
/// ```swift
/// guard let page = try posts.lazyPage(at: 0, in: "GET /posts") else { return }
/// show(try page.items(0..<10))          // the first 10 rows, decoded alone
/// show(try page.items(10..<page.count)) // the rest, later
/// ```
///
/// A range is decoded as `decoded(as:)` on an array of `RawItem` decodes it: item by item.
/// Nothing is kept: decoding the same range twice decodes it twice.
public struct LazyPage<Item: Decodable>: Sendable {
    /// The page's row.
    package let info: PageInfo
    /// The page's items as stored, in order, not decoded.
    public let rawItems: [RawItem]

    /// Wraps a stored page.
    public init(_ page: StoredPage) {
        info = page.info
        rawItems = page.items
    }

    /// The number of items on the page.
    public var count: Int { rawItems.count }

    /// The items at `positions`, decoded.
    ///
    /// - precondition: `positions` lies within `0..<count`.
    /// - throws: `DecodingError` when a stored item does not match `Item`.
    public func items(_ positions: Range<Int>) throws -> [Item] {
        precondition(
            positions.lowerBound >= 0 && positions.upperBound <= count, "positions out of the page's bounds")
        return try Array(rawItems[positions]).decoded(as: Item.self)
    }

    /// Every item of the page, decoded.
    ///
    /// - throws: `DecodingError` when a stored item does not match `Item`.
    package func allItems() throws -> [Item] {
        try rawItems.decoded(as: Item.self)
    }
}
