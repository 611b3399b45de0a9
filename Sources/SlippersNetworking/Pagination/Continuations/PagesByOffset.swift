import Foundation
import Slippers

/// A way whose token is an offset into the list, counted in items: `?offset=` and `Range` headers.
///
/// With a page size, every page is named without the pages before it (the page at `index` starts
/// at `index × size`), counted from the total, and asked for from the item before it; the list
/// ends once the offset reaches the total, or after a page shorter than the page size.
protocol PagesByOffset: ListContinuation {}

extension PagesByOffset {
    func isAddressable(_ style: PaginationStyle) -> Bool { style.pageSize != nil }

    /// The offset of the page at `index`; `nil` with no page size, as pages may hold any number.
    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        guard let pageSize = source.style.pageSize, pageSize > 0 else { return nil }
        return PageToken(index * pageSize)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        Self.pages(of: total, size: source.style.pageSize)
    }

    /// The offset after a page: none once the total is reached, or after a page shorter than the page size.
    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        let offset = try page.token.map(source.integer) ?? 0
        let nextOffset = offset + page.items.count
        if let total = page.total {
            if nextOffset >= total { return nil }
        } else if let limit = source.style.pageSize, page.items.count < limit {
            return nil
        }
        return PageToken(nextOffset)
    }

    func overlappingRequest(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest? {
        widened(for: token, in: source)
    }

    /// The page at an offset asked for from the item before it, one item more.
    func widened(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest? {
        guard let offset = token?.intValue, offset >= 1, let size = source.style.pageSize, size > 0 else { return nil }
        var wider = source
        wider.style.pageSize = size + 1
        return HTTPPageSource.OverlappingRequest(
            source: wider, token: PageToken(offset - 1), offset: offset - 1, size: size + 1, nextPageToken: nil)
    }
}
