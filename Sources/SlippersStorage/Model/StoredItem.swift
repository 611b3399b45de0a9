import Foundation
import Slippers

/// An item as the cache holds it.
public struct StoredItem: Hashable, Sendable {
    /// The type the item is filed under.
    public var type: String
    /// The item's key and JSON bytes.
    public var item: RawItem
    /// When the item's JSON was last written.
    public var updatedAt: Date

    /// Makes a stored item; for backends.
    package init(type: String, item: RawItem, updatedAt: Date) {
        self.type = type
        self.item = item
        self.updatedAt = updatedAt
    }
}
