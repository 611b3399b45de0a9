import Foundation
import Slippers

/// A cached list as the store holds it, with its statistics.
public struct CollectionInfo: Hashable, Sendable {
    /// The canonical key of the list.
    public var key: String
    /// The type of the list's items.
    public var itemType: String
    /// The pagination style, as its source described it.
    public var style: String?
    /// The token of the next page to fetch; `nil` when the end is reached or nothing was fetched.
    public var resumeToken: PageToken?
    /// Whether the last page was fetched.
    public var endReached: Bool
    /// The number of items in the whole list, when the server said.
    public var total: Int?
    /// When the collection was first written.
    public var createdAt: Date
    /// When its first page was last fetched.
    public var refreshedAt: Date?
    /// When it was marked stale, if it still is.
    public var invalidatedAt: Date?
    /// Bumped each time a first page is saved; pages of older generations are stale.
    public var generation: Int
    /// The number of cached pages, stale ones included.
    public var pageCount: Int
    /// The number of cached pages of older generations.
    public var stalePageCount: Int
    /// The number of distinct items the cached pages list (an item on two pages, or twice on one, counts once).
    public var itemCount: Int
    /// When the most recent page was fetched.
    public var lastFetchedAt: Date?
    /// The number of cached pages a refresh marked unverified that the network has not confirmed since.
    public var unverifiedPageCount = 0

    /// Whether the collection was invalidated, or holds pages of an older generation or unverified ones.
    public var isStale: Bool { invalidatedAt != nil || stalePageCount > 0 || unverifiedPageCount > 0 }

    /// The number of pages of the current generation.
    public var currentPageCount: Int { pageCount - stalePageCount }

    /// The index of the next page to fetch: the pages of the current generation come first.
    public var nextPageIndex: Int { currentPageCount }
}
