import Foundation
import Slippers

/// A collection's row and where its current generation ends, read without aggregating its pages.
///
/// What ``CachedPager`` needs on every load: unlike ``CollectionInfo``, it costs
/// the same for a collection of 1 page and one of 100 000.
struct CollectionHead: Hashable, Sendable {
    /// The canonical key of the list.
    var key: String
    /// The token of the next page to fetch; `nil` when the end is reached or nothing was fetched.
    var resumeToken: PageToken?
    /// Whether the last page was fetched.
    var endReached: Bool
    /// The number of items in the whole list, when the server said.
    var total: Int?
    /// When its first page was last fetched.
    var refreshedAt: Date?
    /// When it was marked stale, if it still is.
    var invalidatedAt: Date?
    /// Bumped each time a first page is saved; pages of older generations are stale.
    var generation: Int
    /// The number of pages of the current generation: pages `0..<currentPageCount`.
    var currentPageCount: Int

    /// The index of the next page to fetch: the pages of the current generation come first.
    var nextPageIndex: Int { currentPageCount }
}
