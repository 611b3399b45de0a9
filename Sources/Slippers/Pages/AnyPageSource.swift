/// A ``PageSource`` of any concrete type, so that the type of a source need not appear in the type that holds it.
///
/// For example, a pager holds its source so: a `Pager<Post>` is one type whether its
/// pages come from HTTP, an array or a stub:
///
/// ```swift
/// let source = AnyPageSource(posts.pageSource(pageSize: 20))
/// let first = try await source.fetch(.first).page
/// ```
public struct AnyPageSource<Item: Sendable>: PageSource {
    /// The source this one forwards to.
    let base: any PageSource<Item>

    /// Wraps `base`; a source that is already an `AnyPageSource` is not wrapped twice.
    public init(_ base: any PageSource<Item>) {
        if let erased = base as? AnyPageSource<Item> {
            self.base = erased.base
        } else {
            self.base = base
        }
    }

    /// Fetches the page from the wrapped source.
    public func fetch(_ request: PageRequest) async throws -> PageResult<Item> {
        try await base.fetch(request)
    }

    /// The wrapped source's fingerprint of the headers it sends.
    public func varyKey(for headerNames: [String]) -> String? {
        base.varyKey(for: headerNames)
    }

    /// The base source's digest of the credentials it sends.
    public var credentialDigest: String? { base.credentialDigest }

    /// Whether the base source fetches the pages an item names in `relation`.
    public func answers(_ relation: PageAnchor.Relation) -> Bool { base.answers(relation) }
}
