import Slippers
import SlippersStorage

/// Everything a collection holds, read in one transaction: its row, its pages, its items.
public struct CachedList: Hashable, Sendable {
    /// The collection's row and statistics.
    public var collection: CollectionInfo
    /// The cached pages, in order, superseded ones included.
    public var pages: [PageInfo]
    /// The items of all pages in order, each id once (its first occurrence wins).
    public var items: [RawItem]
}
