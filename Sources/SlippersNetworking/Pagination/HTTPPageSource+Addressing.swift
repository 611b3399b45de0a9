import Slippers

extension HTTPPageSource: AddressablePageSource {
    /// The token of the page at `index`: its page number, or its offset when the page size is set.
    ///
    /// Cursors and the last item's id name no page but the next one: `nil`, unless the first
    /// page's next cursor showed that cursors are offsets (``PredictedCursors``: Relay's
    /// `arrayconnection:N`, a base64 JSON offset, a bare number), which name every page. So do
    /// next URLs and `Link` headers, unless they advance one parameter by a constant step (the style's
    /// ``PaginationStyle/advancing``), and an offset list without a page size, whose pages may
    /// hold any number of items.
    public func token(forPageAt index: Int) -> PageToken? {
        guard index >= 0 else { return nil }
        switch style.kind {
        case .pageNumber(_, let firstPage):
            return PageToken(firstPage + index)
        case .offset, .range:
            guard let pageSize = style.pageSize, pageSize > 0 else { return nil }
            return PageToken(index * pageSize)
        case .nextURL, .linkHeader:
            // The next URLs of an advancing list name every page; others name only the next.
            return style.advancing?.url(forPageAt: index).map { PageToken($0.absoluteString) }
        case .bodyCursor(let cursor) where cursor.isNumbered:
            switch cursor.paging {
            case .page(_, let firstPage): return PageToken(firstPage + index)
            case .offset: return style.pageSize.map { PageToken(index * $0) }
            case .cursor, nil: return nil
            }
        case .cursor, .graphQL, .bodyCursor:
            return pagesByCursor ? learntCursors.value?.token(forPageAt: index) : nil
        case .afterLastItem, .singlePage:
            return nil
        }
    }

    /// The number of pages of `total` items: the total over the page size, rounded up.
    ///
    /// For page numbers the page size is the number of items on a page that is
    /// not the last, as the server sent it (it may send fewer than asked for);
    /// for offsets it is the style's, which the offsets are counted in.
    public func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        let size: Int?
        switch style.kind {
        case .pageNumber: size = pageItemCount
        case .offset, .range: size = style.pageSize
        case .singlePage: return 1
        case .nextURL, .linkHeader: return style.advancing?.pageCount(forTotal: total, pageItemCount: pageItemCount)
        case .bodyCursor(let cursor) where cursor.isNumbered:
            if case .page = cursor.paging { size = pageItemCount } else { size = style.pageSize }
        case .cursor, .graphQL, .bodyCursor:
            return pagesByCursor ? learntCursors.value?.pageCount(forTotal: total) : nil
        case .afterLastItem: size = nil
        }
        guard let size, size > 0, total >= 0 else { return nil }
        return max(1, (total + size - 1) / size)
    }
}
