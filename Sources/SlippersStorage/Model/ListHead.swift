import Foundation
import Slippers

/// A list's row and where its current generation ends, read without aggregating its pages.
///
/// What `Pager` needs on every load and what `SQLiteCache.savePage(_:at:in:now:)`
/// returns; ``ListInfo`` holds it with the list's statistics. Reading
/// a head costs the same for a list of 1 page and one of 100 000.
public struct ListHead: Hashable, Sendable {
    /// The canonical key of the list.
    public var key: String
    /// The token of the next page to fetch; `nil` when the end is reached or nothing was fetched.
    package var resumeToken: PageToken?
    /// Whether the last page was fetched.
    public var endReached: Bool
    /// The number of items in the whole list, when the server said.
    public var total: Int?
    /// When its first page was last fetched.
    public var refreshedAt: Date?
    /// When it was invalidated, if it still is.
    public var invalidatedAt: Date?
    /// Bumped each time a first page is saved; pages of older generations are superseded.
    public var generation: Int
    /// The number of pages of the current generation: pages `0..<currentPageCount`.
    public var currentPageCount: Int
    /// One past the index of the last cached page, of any generation: no page at or after it is cached.
    public var cachedPageCount: Int = 0
    /// How many items of the page just saved repeated an id: listed twice on the page, or by an earlier page
    /// of the current generation. Each id is stored once; `0` when the head was not returned by a save.
    public var repeatedItemCount = 0

    /// Makes a head from a list's row and where its current generation ends; for backends.
    package init(
        key: String, resumeToken: PageToken?, endReached: Bool, total: Int?, refreshedAt: Date?,
        invalidatedAt: Date?, generation: Int, currentPageCount: Int, cachedPageCount: Int = 0,
        repeatedItemCount: Int = 0
    ) {
        self.key = key
        self.resumeToken = resumeToken
        self.endReached = endReached
        self.total = total
        self.refreshedAt = refreshedAt
        self.invalidatedAt = invalidatedAt
        self.generation = generation
        self.currentPageCount = currentPageCount
        self.cachedPageCount = cachedPageCount
        self.repeatedItemCount = repeatedItemCount
    }

    /// The index of the next page to fetch: the pages of the current generation come first.
    package var nextPageIndex: Int { currentPageCount }

    /// Whether the end was reached holding fewer than the announced ``total`` of `itemCount` distinct items.
    func isIncomplete(itemCount: Int) -> Bool {
        Self.isIncomplete(endReached: endReached, total: total, itemCount: itemCount)
    }

    /// Whether a list whose end is reached (or not) holds fewer than its announced total (if any) of
    /// `itemCount` items: the one rule of the cache's lists and the pager's snapshots.
    package static func isIncomplete(endReached: Bool, total: Int?, itemCount: Int) -> Bool {
        guard endReached, let total else { return false }
        return itemCount < total
    }
}
