import Foundation
import Slippers

/// A cached list as the cache holds it: its ``ListHead``, what describes it, and its statistics.
///
/// The list's state (key, resume token, end, total, generation…) is its
/// ``head``, the value `SQLiteCache.savePage(_:at:in:now:)` returns; the
/// members of the same names here read and write the head's. The
/// statistics sum over every page, so reading them costs more for a longer
/// list, which reading a head never does.
public struct ListInfo: Hashable, Sendable {
    /// Whose list this is: the account its key carries.
    public var account: Account { ListKey(parsing: key).account }

    /// The list's state and where its current generation ends.
    package var head: ListHead
    /// The type of the list's items.
    public var itemType: String
    /// The pagination style, as its source described it.
    public var style: String?
    /// When the list was first written.
    public var createdAt: Date
    /// The number of cached pages, superseded ones included.
    public var pageCount: Int
    /// The number of cached pages of older generations.
    public var supersededPageCount: Int
    /// The number of distinct items the cached pages list (an item on two pages, or twice on one, counts once).
    public var itemCount: Int
    /// When the most recent page was fetched.
    public var lastFetchedAt: Date?
    /// The number of cached pages a refresh marked unverified that the network has not confirmed since.
    package var unverifiedPageCount = 0
    /// The number of gaps between the runs of a feed's items: places where the server has items
    /// no page holds. A list with a gap is not a copy of the server's whole list.
    public var gapCount = 0

    /// Makes a list's description from its head and statistics; for backends.
    package init(
        head: ListHead, itemType: String, style: String?, createdAt: Date, pageCount: Int,
        supersededPageCount: Int, itemCount: Int, lastFetchedAt: Date?, unverifiedPageCount: Int = 0,
        gapCount: Int = 0
    ) {
        self.gapCount = gapCount
        self.head = head
        self.itemType = itemType
        self.style = style
        self.createdAt = createdAt
        self.pageCount = pageCount
        self.supersededPageCount = supersededPageCount
        self.itemCount = itemCount
        self.lastFetchedAt = lastFetchedAt
        self.unverifiedPageCount = unverifiedPageCount
    }

    /// The canonical key of the list.
    public var key: String {
        get { head.key }
        set { head.key = newValue }
    }
    /// The token of the next page to fetch; `nil` when the end is reached or nothing was fetched.
    package var resumeToken: PageToken? {
        get { head.resumeToken }
        set { head.resumeToken = newValue }
    }
    /// Whether the last page was fetched.
    public var endReached: Bool {
        get { head.endReached }
        set { head.endReached = newValue }
    }
    /// The number of items in the whole list, when the server said.
    public var total: Int? {
        get { head.total }
        set { head.total = newValue }
    }
    /// When its first page was last fetched.
    package var refreshedAt: Date? {
        get { head.refreshedAt }
        set { head.refreshedAt = newValue }
    }
    /// When it was invalidated, if it still is.
    package var invalidatedAt: Date? {
        get { head.invalidatedAt }
        set { head.invalidatedAt = newValue }
    }
    /// Bumped each time a first page is saved; pages of older generations are superseded.
    public var generation: Int {
        get { head.generation }
        set { head.generation = newValue }
    }

    /// Whether the list's end was reached with fewer distinct items than its server announced:
    /// the walk was cut short (a server that ignored the page parameter, a cursor not followed,
    /// a page size the server did not honour), and the cache is not an exact copy.
    ///
    /// A list whose server announced no total is never incomplete by this measure.
    public var isIncomplete: Bool { head.isIncomplete(itemCount: itemCount) }

    /// Whether some of the list is unverified: it was invalidated, or holds superseded pages (of an
    /// older generation) or pages a refresh marked unverified.
    public var isUnverified: Bool { invalidatedAt != nil || supersededPageCount > 0 || unverifiedPageCount > 0 }

    /// The number of pages of the current generation.
    public var currentPageCount: Int { head.currentPageCount }

    /// The index of the next page to fetch: the pages of the current generation come first.
    package var nextPageIndex: Int { head.nextPageIndex }
}
