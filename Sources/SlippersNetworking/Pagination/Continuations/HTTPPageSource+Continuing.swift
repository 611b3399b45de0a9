import Foundation
import Slippers

/// What several ways share: next URLs that advance one parameter, and cursors learnt to be offsets.
extension HTTPPageSource {
    /// The token of the page at `index` of a next-URL or `Link` list whose URLs advance one
    /// parameter (``PaginationStyle/advancing``); `nil` for one whose next URLs name only the next page.
    func advancingToken(forPageAt index: Int) -> PageToken? {
        style.advancing?.url(forPageAt: index).map { PageToken($0.absoluteString) }
    }

    /// The pages read so far by an advancing next-URL or `Link` list, the one at `requestURL`
    /// included: its URLs number its pages.
    func advancingPagesSoFar(token: PageToken?, requestURL: URL) -> Int? {
        guard let advancing = style.advancing else { return nil }
        return token == nil ? 1 : advancing.pageIndex(of: requestURL).map { $0 + 1 }
    }

    /// The page at `token` of an advancing next-URL or `Link` list, asked for from the item before it.
    func advancingOverlap(for token: PageToken?) -> OverlappingRequest? {
        guard let advancing = style.advancing, let text = token?.rawValue, let url = URL(string: text),
            let index = advancing.pageIndex(of: url), index >= 1,
            let wider = advancing.overlappingURL(forPageAt: index)
        else { return nil }
        return OverlappingRequest(
            source: self, token: PageToken(wider.absoluteString),
            offset: advancing.first + advancing.step * index - 1,
            size: advancing.step + 1,
            nextPageToken: advancing.url(forPageAt: index + 1).map { PageToken($0.absoluteString) })
    }

    /// The cursor of the page at `index`, when the first page's next cursor showed that cursors
    /// are offsets (``PredictedCursors``); `nil` for opaque cursors, which name only the next page.
    func learntCursorToken(forPageAt index: Int) -> PageToken? {
        pagesByCursor ? learntCursors.value?.token(forPageAt: index) : nil
    }

    /// The number of pages of `total` items, when cursors were learnt to be offsets.
    func learntCursorPageCount(forTotal total: Int) -> Int? {
        pagesByCursor ? learntCursors.value?.pageCount(forTotal: total) : nil
    }

    /// Whether the style's next page is asked for with a cursor the server made (not a
    /// continuation object, not a last item's id).
    var pagesByCursor: Bool { style.continuation.pagesByCursor }
}
