import Foundation
import Slippers

/// A way whose pages are found by following the next link each page gives, in its body or its
/// headers: next URLs and `Link` headers. The token is the next page's URL.
///
/// Such a list names every page when its next URL is the list's URL with one parameter advanced
/// (``PaginationStyle/advancing``, learnt by detection): then pages are asked for several at once,
/// counted, and asked for with the item before them; else one page after another.
protocol FollowsNextLinks: ListContinuation {}

extension FollowsNextLinks {
    func readsPagesByNumber(_ style: PaginationStyle) -> Bool { style.advancing?.step == 1 }
    func isAddressable(_ style: PaginationStyle) -> Bool { style.advancing != nil }

    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        source.advancingToken(forPageAt: index)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        source.style.advancing?.pageCount(forTotal: total, pageItemCount: pageItemCount)
    }

    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL {
        try source.linkedURL(for: token)
    }

    func pagesSoFar(token: PageToken?, requestURL: URL, in source: HTTPPageSource) throws -> Int? {
        source.advancingPagesSoFar(token: token, requestURL: requestURL)
    }

    func overlappingRequest(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest? {
        source.advancingOverlap(for: token)
    }
}
