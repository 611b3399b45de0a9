import Foundation
import Slippers

/// An item as the store holds it.
public struct StoredItem: Hashable, Sendable {
    /// The type the item is filed under.
    public var type: String
    /// The item's key and JSON bytes.
    public var item: RawItem
    /// When the item's JSON was last written.
    public var updatedAt: Date
}
