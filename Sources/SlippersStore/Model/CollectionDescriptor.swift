/// What a store needs to know of a collection to file its first page.
public struct CollectionDescriptor: Hashable, Sendable {
    /// The canonical key of the list, such as an endpoint and its sorted query.
    public var key: String
    /// The type of the collection's items; items are filed under it.
    public var itemType: String
    /// The pagination style, as its source describes it (kept as text, never interpreted by the store).
    public var style: String?

    /// Creates a descriptor.
    public init(key: String, itemType: String, style: String? = nil) {
        self.key = key
        self.itemType = itemType
        self.style = style
    }
}
