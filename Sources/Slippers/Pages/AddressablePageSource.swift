/// A ``PageSource`` that can name the token of any page by its index, without fetching the pages before it.
///
/// Page numbers and offsets with a known page size are addressable: the
/// token of page *k* is a sum. Cursors and next URLs are not: each token
/// comes from the page before. A sync asks an addressable source for several
/// pages at once, and still saves them in order.
///
/// A source may be addressable for some lists only (an HTTP source paging by
/// cursor is not): ``token(forPageAt:)`` then answers `nil` and the sync pages
/// one page after another.
///
/// For example, pages numbered from 1 with 50 items each:
///
/// ```swift
/// source.token(forPageAt: 2)                          // "3"
/// source.pageCount(forTotal: 120, pageItemCount: 50)  // 3
/// ```
public protocol AddressablePageSource<Item>: PageSource {
    /// The token of the page at `index`, counted from 0 for the first page; `nil` when the source cannot name it.
    ///
    /// The token must be the one the page before announces as its
    /// ``Page/nextToken``; a sync that finds otherwise goes back to paging one after another.
    func token(forPageAt index: Int) -> PageToken?

    /// The number of pages of a list of `total` items; `nil` when the source cannot tell.
    ///
    /// - parameter pageItemCount: The number of items on a page that is not the last, as fetched;
    ///   the page size when the source did not set one.
    func pageCount(forTotal total: Int, pageItemCount: Int) -> Int?
}
