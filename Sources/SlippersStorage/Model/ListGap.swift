import Foundation
import Slippers

/// A place in a cached feed where the server has items no page holds: between two runs of items
/// known to be contiguous on the server.
///
/// A refresh of a list read from its head (`setNewestFirst(_:for:)`) whose pages did
/// not reach a cached item leaves one: the new items above it, the items read before below it,
/// and the continuation of the new run (``token``) to fill it with. Gaps are kept in the file, so
/// a relaunch, offline too, shows the same runs and gaps.
public struct ListGap: Hashable, Sendable {
    /// The gap's number in the file.
    public var id: Int64
    /// The index of the page the gap sits on.
    public var pageIndex: Int
    /// The position on that page of the item above the gap; -1 when the gap opens the page.
    public var afterPosition: Int
    /// What continues the run above the gap: the next page's token.
    public var token: PageToken
    /// How many items the server said the gap holds, when it said.
    public var itemCount: Int?
    /// When a refresh found the gap.
    public var createdAt: Date
    /// The id of the item right below the gap, from which it fills upward (the items newer than
    /// it); `nil` when the gap ends the list.
    public var keyBelow: ItemKey?

    package init(
        id: Int64, pageIndex: Int, afterPosition: Int, token: PageToken, itemCount: Int?, createdAt: Date,
        keyBelow: ItemKey?
    ) {
        self.id = id
        self.pageIndex = pageIndex
        self.afterPosition = afterPosition
        self.token = token
        self.itemCount = itemCount
        self.createdAt = createdAt
        self.keyBelow = keyBelow
    }
}

/// What filling a gap with one page did: see ``FeedGapStorage/fillGap(_:with:in:now:)``.
public struct GapFill: Hashable, Sendable {
    /// The items the page brought that no page held: put where the gap was.
    public var inserted: Int
    /// Whether the page reached an item the list held (or the list's end): the gap is closed.
    public var isClosed: Bool

    package init(inserted: Int, isClosed: Bool) {
        self.inserted = inserted
        self.isClosed = isClosed
    }
}

/// A storage that keeps a feed's gaps (``ListGap``): places between two runs of a list's items
/// where the server has items no page holds, which a sync fills.
public protocol FeedGapStorage: CacheStorage {
    /// The gaps of the list's current generation, in the list's order; none for a list not cached.
    func gaps(in key: String) throws -> [ListGap]

    /// Puts the items of `page`, fetched with the gap's token, where the gap is: the page's items
    /// up to the first one the list holds; that item, or a page with no next token, closes the gap.
    @discardableResult
    func fillGap(_ gap: ListGap, with page: Page<RawItem>, in list: ListDescriptor, now: Date) throws
        -> GapFill
}
