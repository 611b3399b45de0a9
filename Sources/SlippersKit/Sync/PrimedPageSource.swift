import Synchronization

/// A source whose first page was already fetched (to detect the style): that page is served once, not fetched again.
///
/// The first unconditional request for the first page gets the primed page;
/// every other request, and any after it, goes to the base source. It names
/// pages by index as its base does, so a sync may ask for several at once.
public final class PrimedPageSource: AddressablePageSource {
    /// The source of every other page.
    public let base: HTTPPageSource
    private let primed: Mutex<[PageToken?: Page<RawItem>]>
    /// The last item of the primed first page: the item before the primed second page.
    private let lastOfFirstPage: RawItem?

    /// Creates a source that serves `firstPage` for the first request of the first page, and
    /// `secondPage` for the first request of the token the first page names, then asks `base`.
    public init(base: HTTPPageSource, firstPage: Page<RawItem>?, secondPage: Page<RawItem>? = nil) {
        self.base = base
        var pages: [PageToken?: Page<RawItem>] = [:]
        if let firstPage {
            let firstToken: PageToken? = nil
            pages[firstToken] = firstPage
            if let secondPage, let next = firstPage.nextToken { pages[next] = secondPage }
        }
        self.primed = Mutex(pages)
        lastOfFirstPage = secondPage == nil ? nil : firstPage?.items.last
    }

    /// The primed pages once each, then the base source's pages.
    ///
    /// A request for the primed second page that asks for the item before it (of a list whose
    /// base source can ask for one) gets the item the server listed before it when the page was
    /// read with it, else the first page's last item: the two pages were read one after the other,
    /// as a walk reads them.
    public func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        if request.validators == nil, request.anchor == nil, var page = takePrimed(request.token) {
            // A second page read with the item before it (as detection asks it) keeps what the server said.
            if request.overlapsPreviousPage, request.token != nil, page.itemBefore == nil,
                base.asksItemBefore(at: request.token)
            {
                page.itemBefore = lastOfFirstPage
            }
            return .page(page)
        }
        return try await base.fetch(request)
    }

    /// The primed page of a token, if it was not served yet; each is served once.
    private func takePrimed(_ token: PageToken?) -> Page<RawItem>? {
        primed.withLock { pages in pages.removeValue(forKey: token) }
    }

    /// Whether the base source asks for the item before the page at `token`.
    public func asksItemBefore(at token: PageToken?) -> Bool {
        base.asksItemBefore(at: token)
    }

    /// The style text the base source learnt of its server, if any.
    public var learntStyle: String? {
        base.learntStyle
    }

    /// The base source's fingerprint of the headers it sends.
    public func varyKey(for headerNames: [String]) -> String? {
        base.varyKey(for: headerNames)
    }

    /// The base source's digest of the credentials it sends.
    public var credentialDigest: String? { base.credentialDigest }

    /// Whether the base source fetches the pages an item names in `relation`.
    public func answers(_ relation: PageAnchor.Relation) -> Bool { base.answers(relation) }

    /// The base source's token for the page at `index`.
    public func token(forPageAt index: Int) -> PageToken? {
        base.token(forPageAt: index)
    }

    /// The base source's number of pages for a list of `total` items.
    public func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        base.pageCount(forTotal: total, pageItemCount: pageItemCount)
    }
}
