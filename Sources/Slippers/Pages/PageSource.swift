/// A request for one page of a list.
public struct PageRequest: Hashable, Sendable {
    /// The position of the page; `nil` asks for the first page.
    public var token: PageToken?
    /// The validators of a cached copy of the page; when given, the source
    /// may answer ``PageResult/notModified(_:)``.
    public var validators: PageValidators?
    /// Whether the source may try again after a transient failure before it answers; `false`
    /// when a quick answer matters more, as when the page's cached copy is shown already and the
    /// pager's own backoff tries again later. `true` unless set.
    public var retriesTransientFailures = true
    /// Whether the answer should also hold the item the list holds just before the page, as
    /// ``Page/itemBefore``: a walk that remembers the last item of the page before sees whether
    /// the list moved between the two requests. A source that cannot ask for it (only an offset,
    /// range or next-URL list that advances an offset by a page size it sets can) answers without
    /// it. `false` unless set.
    public var overlapsPreviousPage = false
    /// The page named by an item instead of by ``token``: the items older than it, newer than it or
    /// around it; only for a source that answers the relation (``PageSource/answers(_:)``).
    public var anchor: PageAnchor?

    /// Creates a request.
    public init(
        token: PageToken? = nil, validators: PageValidators? = nil, retriesTransientFailures: Bool = true,
        overlapsPreviousPage: Bool = false, anchor: PageAnchor? = nil
    ) {
        self.anchor = anchor
        self.token = token
        self.validators = validators
        self.retriesTransientFailures = retriesTransientFailures
        self.overlapsPreviousPage = overlapsPreviousPage
    }

    /// The request for the first page.
    public static let first = PageRequest()
}

/// What a ``PageSource`` answered to a ``PageRequest``.
public enum PageResult<Item> {
    /// The page, fetched.
    case page(Page<Item>)
    /// The cached copy named by the request's validators is still current;
    /// the associated validators are the server's latest (they may be refreshed).
    case notModified(PageValidators)

    /// The page, or `nil` when the source answered "not modified".
    public var page: Page<Item>? {
        if case .page(let page) = self { return page }
        return nil
    }
}

extension PageResult: Sendable where Item: Sendable {}
extension PageResult: Equatable where Item: Equatable {}

/// Anything that delivers a list page by page: an HTTP API, an array, a stub.
///
/// This is the seam between the cache and the network: the cache asks a
/// source for the page at a token and stores what comes back, without
/// knowing whether the source speaks HTTP.
///
/// For example, an array serves itself in pages of 20:
///
/// ```swift
/// let source = posts.pageSource(pageSize: 20)
/// let first = try await source.fetch(.first).page
/// ```
public protocol PageSource<Item>: Sendable {
    /// The type of the items on a page.
    associatedtype Item: Sendable

    /// Fetches the page a request names.
    ///
    /// - throws: Whatever the source fails with (a transport or HTTP error,
    ///   a decoding error); `CancellationError` when the task is cancelled.
    func fetch(_ request: PageRequest) async throws -> PageResult<Item>

    /// Whether a request for the page at `token` can ask for the item before the page
    /// (``PageRequest/overlapsPreviousPage``). The default cannot.
    func asksItemBefore(at token: PageToken?) -> Bool

    /// The style text a list of this source records from now on, when the source learnt
    /// since it was made how its server must be asked (an HTTP source: the largest page size
    /// the server takes); `nil` to keep the list's. The default learns nothing.
    ///
    /// A sync records it with the next page it saves, so the next run asks as this one ended up asking.
    var learntStyle: String? { get }

    /// The fingerprint of the values this source sends for the request headers `headerNames`:
    /// a digest that tells values apart without holding them (the HTTP source's is SHA-256).
    ///
    /// A cache compares it with a page's ``PageCaching/varyKey`` to serve a page
    /// that `Vary`s on those headers only to requests that send the same values.
    /// The default sends none of them.
    func varyKey(for headerNames: [String]) -> String?

    /// A digest of the credentials this source's requests carry (the HTTP source's: SHA-256 of its
    /// credential headers and query parameters), or `nil` when they carry none.
    ///
    /// A cache derives the ``Account`` of a list from it when the caller declares none, so pages
    /// fetched with one credential are never served to requests with another. The default carries none.
    var credentialDigest: String? { get }

    /// Whether the source can fetch the page an item names in this relation
    /// (``PageRequest/anchor``): its server has a parameter for it, declared or learnt from the
    /// pages fetched so far. The default answers none.
    func answers(_ relation: PageAnchor.Relation) -> Bool
}

extension PageSource {
    /// The fingerprint of a source that sends none of the headers: their names alone.
    public func varyKey(for headerNames: [String]) -> String? {
        guard !headerNames.isEmpty else { return nil }
        return "none of " + headerNames.map { $0.lowercased() }.sorted().joined(separator: ",")
    }

    /// A source that cannot ask for the item before a page.
    public func asksItemBefore(at token: PageToken?) -> Bool { false }

    /// A source whose requests carry no credential.
    public var credentialDigest: String? { nil }

    /// A source that learns nothing of its server.
    public var learntStyle: String? { nil }

    /// A source that names its pages by their place only.
    public func answers(_ relation: PageAnchor.Relation) -> Bool { false }
}
