import Slippers

extension HTTPPageSource: AddressablePageSource {
    /// The token of the page at `index`: its page number, or its offset when the page size is set.
    ///
    /// Cursors, the last item's id, next URLs and `Link` headers name no page but the next one: `nil`.
    /// So does an offset list without a page size, whose pages may hold any number of items.
    public func token(forPageAt index: Int) -> PageToken? {
        guard index >= 0 else { return nil }
        switch style.kind {
        case .pageNumber(_, let firstPage):
            return PageToken(firstPage + index)
        case .offset:
            guard let pageSize = style.pageSize, pageSize > 0 else { return nil }
            return PageToken(index * pageSize)
        case .cursor, .afterLastItem, .nextURL, .linkHeader, .singlePage:
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
        case .offset: size = style.pageSize
        case .singlePage: return 1
        case .cursor, .afterLastItem, .nextURL, .linkHeader: size = nil
        }
        guard let size, size > 0, total >= 0 else { return nil }
        return max(1, (total + size - 1) / size)
    }
}
