import Foundation
import Slippers

/// One response holds the whole list: ``PaginationStyle/Kind/singlePage``. The URL is asked for
/// as it is, and there is no next page.
struct SinglePage: ListContinuation {
    static let name = "singlePage"
    static var template: PaginationStyle? { .singlePage() }

    var description: String { "one page (the whole list in one response)" }
    var sendsPageSize: Bool { false }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? { 1 }

    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL {
        // The only page has no token; a token names no page of such a list.
        if let token { throw NetworkError(.invalidToken(token.rawValue), url: source.url) }
        return source.url
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? { nil }

    func endSigns(_ style: PaginationStyle) -> [String] { [] }

    func endOfList(_ style: PaginationStyle) -> String { "the first response: the list is one page" }
}
