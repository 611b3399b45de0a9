/// One page of a paginated list, as a ``PageSource`` delivered it.
public struct Page<Item> {
    /// The items of the page, in the server's order.
    public var items: [Item]
    /// The token that fetched this page; `nil` for the first page.
    public var token: PageToken?
    /// The token of the following page, or `nil` when this is the last page.
    public var nextToken: PageToken?
    /// The total number of items in the whole list, when the server says.
    public var total: Int?
    /// The number of pages of the whole list, when the response says (a `Link` header's `rel="last"`).
    public var pageCount: Int?
    /// The validators to revalidate this page with later.
    public var validators: PageValidators
    /// What the response said about caching the page: lifetime, directives, `Vary`.
    public var caching: PageCaching
    /// The item the list held just before ``items`` when the page was read, for a request that
    /// asked for it (``PageRequest/overlapsPreviousPage``); not one of ``items``, and never stored.
    public var itemBefore: Item?

    /// Creates a page.
    public init(
        items: [Item],
        token: PageToken? = nil,
        nextToken: PageToken? = nil,
        total: Int? = nil,
        validators: PageValidators = PageValidators(),
        caching: PageCaching = PageCaching(),
        pageCount: Int? = nil
    ) {
        self.items = items
        self.token = token
        self.nextToken = nextToken
        self.total = total
        self.validators = validators
        self.caching = caching
        self.pageCount = pageCount
    }

    /// Whether the list ends with this page.
    public var isLast: Bool { nextToken == nil }

    /// The same page with each item transformed.
    public func mapItems<Other>(_ transform: (Item) throws -> Other) rethrows -> Page<Other> {
        var mapped = Page<Other>(
            items: try items.map(transform),
            token: token,
            nextToken: nextToken,
            total: total,
            validators: validators,
            caching: caching,
            pageCount: pageCount
        )
        mapped.itemBefore = try itemBefore.map(transform)
        return mapped
    }
}

extension Page: Sendable where Item: Sendable {}
extension Page: Equatable where Item: Equatable {}
