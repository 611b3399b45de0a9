import Slippers

/// A cached list, described by value: its key, the type its items are filed under, its pagination style.
///
/// A pager and a sync take one; the HTTP conveniences of `SlippersKit` derive it
/// from the list's URL and style, so the key carries the style.
public struct ListDescriptor: Hashable, Sendable {
    /// The canonical key of the list, such as an endpoint and its sorted query.
    public var key: String
    /// The type of the list's items; items are filed under it.
    public var itemType: String
    /// The pagination style, as its source describes it (kept as text, never interpreted by the cache).
    public var style: String?

    /// Creates a descriptor.
    public init(key: String, itemType: String, style: String? = nil) {
        self.key = key
        self.itemType = itemType
        self.style = style
    }

    /// Creates a descriptor whose items are filed under the name of `type`, as in `Post`.
    public init<Item>(key: String, of type: Item.Type, style: String? = nil) {
        self.init(key: key, itemType: String(describing: type), style: style)
    }

    /// Creates a descriptor for a key built from its parts.
    public init(key: ListKey, itemType: String, style: String? = nil) {
        self.init(key: key.description, itemType: itemType, style: style)
    }

    /// The key in its parts: the list's own key, its style fingerprint and its account.
    public var listKey: ListKey { ListKey(parsing: key) }

    /// The account the list is kept for: the one its key carries.
    public var account: Account { listKey.account }

    /// The list kept for `account`: the account goes into the key and the item type, so no
    /// page or item row is shared across accounts. This descriptor itself for the anonymous account.
    public func forAccount(_ account: Account) -> ListDescriptor {
        guard !account.isAnonymous else { return self }
        var described = self
        described.key = listKey.forAccount(account).description
        described.itemType = ListKey.itemType(itemType, account: account)
        return described
    }
}
