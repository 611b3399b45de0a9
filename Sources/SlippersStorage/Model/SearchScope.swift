/// Where a search looks: the items of one cached list, or every cached item of one item type.
///
/// Both stay within one account: a list's key and an item type carry their account
/// (`ListKey`), so a search never finds another account's items.
///
/// For example:
///
/// ```swift
/// let inList = try cache.search("cafe", in: .list("GET /posts"))
/// let ofType = try cache.search("cafe", in: .itemType("Post"))
/// ```
public enum SearchScope: Sendable, Hashable {
    /// The items the cached pages of the list with this key hold.
    case list(String)
    /// Every cached item filed under this item type, exactly as given (its account suffix included).
    case itemType(String)
}
