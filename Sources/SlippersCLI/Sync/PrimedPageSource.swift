import Slippers
import SlippersNetworking

/// An HTTP source whose first page was already fetched (to detect the style): it is served, not fetched again.
///
/// It names pages by index as its base does, so a sync may ask for several at once.
struct PrimedPageSource: AddressablePageSource {
    /// The source of every other page.
    var base: HTTPPageSource
    /// The first page, as the detecting request received it; `nil` to fetch it.
    var firstPage: Page<RawItem>?

    func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        if request.token == nil, request.validators == nil, let firstPage { return .page(firstPage) }
        return try await base.fetch(request)
    }

    func token(forPageAt index: Int) -> PageToken? {
        base.token(forPageAt: index)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        base.pageCount(forTotal: total, pageItemCount: pageItemCount)
    }
}
