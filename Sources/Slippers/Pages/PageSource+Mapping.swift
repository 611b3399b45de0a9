/// A source whose items are those of another source, transformed.
public struct MappedPageSource<Base: PageSource, Item: Sendable>: PageSource {
    private let base: Base
    private let transform: @Sendable (Base.Item) throws -> Item

    init(base: Base, transform: @escaping @Sendable (Base.Item) throws -> Item) {
        self.base = base
        self.transform = transform
    }

    /// Fetches the page from the base source and transforms its items.
    public func fetch(_ request: PageRequest) async throws -> PageResult<Item> {
        switch try await base.fetch(request) {
        case .page(let page): .page(try page.mapItems(transform))
        case .notModified(let validators): .notModified(validators)
        }
    }

    /// The base source's fingerprint: mapping items does not change the requests.
    public func varyKey(for headerNames: [String]) -> String? {
        base.varyKey(for: headerNames)
    }

    /// Whether the base source fetches the pages an item names in `relation`.
    public func answers(_ relation: PageAnchor.Relation) -> Bool { base.answers(relation) }
}

extension PageSource {
    /// A source that delivers this source's pages with each item transformed.
    public func mapItems<Other: Sendable>(
        _ transform: @escaping @Sendable (Item) throws -> Other
    ) -> MappedPageSource<Self, Other> {
        MappedPageSource(base: self, transform: transform)
    }
}
