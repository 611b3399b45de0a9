import Slippers
import SlippersStorage

/// Everything a list holds, read in one transaction: its row, its pages, its items.
public struct CachedList: Hashable, Sendable {
    /// The list's row and statistics.
    public var list: ListInfo
    /// The cached pages, in order, superseded ones included.
    public var pages: [PageInfo]
    /// The items of all pages in order, each id once (its first occurrence wins).
    public var items: [RawItem]
}
