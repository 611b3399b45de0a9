import Foundation
import Slippers

/// RFC 8288 `Link: <url>; rel="next"` headers, or a header that holds the next page's URL alone
/// (`Next-Page`, `X-Next-Page`, `X-Next`): ``PaginationStyle/Kind/linkHeader``. The token is the URL.
struct LinkHeaders: FollowsNextLinks {
    static let name = "linkHeader"
    static var template: PaginationStyle? { .linkHeader() }
    static var detectionRules: [DetectionRule] { [DetectionRule(rank: 30) { $0.linkHeader(evidence: $1) }] }

    var description: String { #"next link in headers (Link rel="next", or Next-Page, X-Next-Page, X-Next)"# }

    /// The page a `Link` header's `rel="last"` names, else the page count a header announces, for an advancing list.
    func announcedPageCount(
        scanner: JSONScanner, response: NetworkResponse, announced: PaginationHeaders, in source: HTTPPageSource
    ) -> Int? {
        guard let advancing = source.style.advancing else { return nil }
        if let header = response.header("Link"), let last = LinkHeader(header).url(rel: "last"),
            let url = URL(string: last, relativeTo: source.url), let index = advancing.pageIndex(of: url)
        {
            return index + 1
        }
        return announced.pageCount
    }

    func nextLink(in scanner: JSONScanner?, header: (String) -> String?) -> String? {
        NextLink.url(header: header)?.url
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        guard let text = NextLink.url(header: page.response.header)?.url else { return nil }
        return try source.advancingURL(text, from: page.requestURL, token: page.token)
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        [#"no Link rel="next" nor next-page header"#]
            + (style.advancing != nil
                ? [#"the page a Link rel="last" names"#, "the page count a header announces"] : [])
    }
}
