import Foundation
import Slippers

/// One cached page's row: where it came from and when.
public struct PageInfo: Hashable, Sendable {
    /// The position of the page in its collection, from 0.
    public var index: Int
    /// The generation the page belongs to.
    public var generation: Int
    /// The token that fetched the page; `nil` for a first page.
    public var token: PageToken?
    /// The token of the following page; `nil` for the last.
    public var nextToken: PageToken?
    /// The validators to revalidate the page with.
    public var validators: PageValidators
    /// When the page was fetched or last revalidated.
    public var fetchedAt: Date
    /// The number of items on the page.
    public var itemCount: Int
    /// Whether the page belongs to an older generation than its collection's.
    public var isStale: Bool
}

/// A cached page with its items, in the server's order.
public struct StoredPage: Hashable, Sendable {
    /// The page's row.
    public var info: PageInfo
    /// The items, in order.
    public var items: [RawItem]

    /// The page as the core's `Page`, as its source once delivered it.
    public var page: Page<RawItem> {
        Page(items: items, token: info.token, nextToken: info.nextToken, validators: info.validators)
    }
}
