import Foundation
import Slippers

/// The full URL of the next page in the body at `keyPath`: ``PaginationStyle/Kind/nextURL(keyPath:)``.
/// The token is the URL.
struct NextURLs: FollowsNextLinks {
    /// Where the body holds the next page's URL: a string, a link object, or an array of link objects.
    var keyPath: String

    static let name = "nextURL"
    static var template: PaginationStyle? { .nextURL() }
    static var detectionRules: [DetectionRule] {
        [
            DetectionRule(rank: 40) { $0.odata(evidence: $1) },
            DetectionRule(rank: 50) { $0.linkArray(evidence: $1) },
            DetectionRule(rank: 60) { $0.nextMember(evidence: $1) },
            DetectionRule(rank: 70) { $0.nullNextOnly(evidence: $1) },
        ]
    }

    var description: String { "next URL (at \(keyPath))" }

    /// The page count a header announces (`X-WP-TotalPages`…), for an advancing list.
    func announcedPageCount(
        scanner: JSONScanner, response: NetworkResponse, announced: PaginationHeaders, in source: HTTPPageSource
    ) -> Int? {
        source.style.advancing == nil ? nil : announced.pageCount
    }

    func nextLink(in scanner: JSONScanner?, header: (String) -> String?) -> String? {
        scanner?.nextPageURL(at: PaginationStyle.components(keyPath))
    }

    /// The next link and a previous one beside it (JSON:API's `links.prev`), when they are the
    /// list's URL with an item's id.
    func feedParameters(in scanner: JSONScanner, items: [RawItem]) -> FeedParameters? {
        let path = PaginationStyle.components(keyPath)
        let previous = ["prev", "previous"].lazy.compactMap { scanner.linkURL(at: path.dropLast() + [$0]) }.first
        return FeedParameters.learnt(next: scanner.nextPageURL(at: path), previous: previous, items: items)
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        guard let text = page.scanner.nextPageURL(at: PaginationStyle.components(keyPath)), !text.isEmpty else {
            return nil
        }
        return try source.advancingURL(text, from: page.requestURL, token: page.token)
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        ["no URL at \(keyPath)"]
            + (style.advancing != nil ? style.totalKeyPath.map { ["the total at \($0) reached"] } ?? [] : [])
    }
}
