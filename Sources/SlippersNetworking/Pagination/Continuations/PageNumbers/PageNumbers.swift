import Foundation
import Slippers

/// `?page=N`, numbered from `firstPage` (0 or 1): ``PaginationStyle/Kind/pageNumber(parameter:firstPage:)``.
/// The token is the page number.
struct PageNumbers: ListContinuation {
    /// The query parameter that numbers pages.
    var parameter: String
    /// The number of the first page, 0 or 1.
    var firstPage: Int

    static let name = "pageNumber"
    static var template: PaginationStyle? { .pageNumber() }
    static var detectionRules: [DetectionRule] {
        [
            DetectionRule(rank: 10) { $0.xPagination(evidence: $1) },
            DetectionRule(rank: 110) { $0.encodedPaging(evidence: $1) },
            DetectionRule(rank: 1_000) { $0.pageNumbers(evidence: $1) },
        ]
    }

    var description: String { "page numbers (?\(parameter)=N from \(firstPage))" }
    var parameters: Set<String> { [parameter] }
    var asksByInference: Bool { true }
    var mayBeOnePage: Bool { true }
    func readsPagesByNumber(_ style: PaginationStyle) -> Bool { true }
    func isAddressable(_ style: PaginationStyle) -> Bool { true }

    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        PageToken(firstPage + index)
    }

    /// The page size is the number of items on a page that is not the last, as the server sent it
    /// (it may send fewer than asked for).
    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        Self.pages(of: total, size: pageItemCount)
    }

    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL {
        let number = try token.map(source.integer) ?? firstPage
        return try source.settingQuery([parameter: String(number)])
    }

    func pagesSoFar(token: PageToken?, requestURL: URL, in source: HTTPPageSource) throws -> Int? {
        try (token.map(source.integer) ?? firstPage) - firstPage + 1
    }

    /// The page count at the style's end signal, else `total_pages`, else a header's.
    func announcedPageCount(
        scanner: JSONScanner, response: NetworkResponse, announced: PaginationHeaders, in source: HTTPPageSource
    ) -> Int? {
        if case .pageCount(let keyPath)? = source.style.endSignal,
            let count = scanner.int(at: PaginationStyle.components(keyPath))
        {
            return count
        }
        return scanner.int(at: ["total_pages"]) ?? announced.pageCount
    }

    func usualEndSignal(_ style: PaginationStyle) -> PaginationStyle.EndSignal? {
        .pageCount(keyPath: "total_pages")
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        let number = try page.token.map(source.integer) ?? firstPage
        let pagesSoFar = number - firstPage + 1
        let itemCount = page.items.count
        if let total = page.total {
            // A server may serve fewer items a page than asked for: the total says whether the list goes on.
            let served = min(source.style.pageSize ?? itemCount, itemCount)
            if pagesSoFar * served >= total { return nil }
        } else if let pageSize = source.style.pageSize, itemCount < pageSize {
            return nil
        }
        return PageToken(number + 1)
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        guard let pageSize = style.pageSize else { return [] }
        return ["a page shorter than \(pageSize)"] + (style.totalKeyPath.map { ["the total at \($0) reached"] } ?? [])
    }

    func options(_ style: PaginationStyle) -> [(name: String, value: String)]? { [("--page-param", parameter)] }

    func askedText(_ token: PageToken) -> String { "?\(parameter)=\(token.rawValue)" }
}
