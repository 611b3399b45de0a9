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
        return style.continuation.token(forPageAt: index, in: self)
    }

    /// The number of pages of `total` items: the total over the page size, rounded up.
    ///
    /// For page numbers the page size is the number of items on a page that is
    /// not the last, as the server sent it (it may send fewer than asked for);
    /// for offsets it is the style's, which the offsets are counted in.
    public func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        style.continuation.pageCount(forTotal: total, pageItemCount: pageItemCount, in: self)
    }
}
