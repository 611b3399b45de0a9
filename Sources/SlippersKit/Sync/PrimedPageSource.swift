import Synchronization

/// A source whose first page was already fetched (to detect the style): that page is served once, not fetched again.
///
/// The first unconditional request for the first page gets the primed page;
/// every other request, and any after it, goes to the base source. It names
/// pages by index as its base does, so a sync may ask for several at once.
public final class PrimedPageSource: AddressablePageSource {
    /// The source of every other page.
    public let base: HTTPPageSource
    private let firstPage: Mutex<Page<RawItem>?>

    /// Creates a source that serves `firstPage` for the first request of the first page, then asks `base`.
    public init(base: HTTPPageSource, firstPage: Page<RawItem>?) {
        self.base = base
        self.firstPage = Mutex(firstPage)
    }

    /// The primed first page once, then the base source's pages.
    public func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        if request.token == nil, request.validators == nil, let primed = takeFirstPage() { return .page(primed) }
        return try await base.fetch(request)
    }

    /// The primed first page, if it was not served yet; it is served once.
    private func takeFirstPage() -> Page<RawItem>? {
        firstPage.withLock { page in
            let primed = page
            page = nil
            return primed
        }
    }

    /// The base source's fingerprint of the headers it sends.
    public func varyKey(for headerNames: [String]) -> String? {
        base.varyKey(for: headerNames)
    }

    /// The base source's token for the page at `index`.
    public func token(forPageAt index: Int) -> PageToken? {
        base.token(forPageAt: index)
    }

    /// The base source's number of pages for a list of `total` items.
    public func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        base.pageCount(forTotal: total, pageItemCount: pageItemCount)
    }
}
