import Foundation
import Slippers

/// `?starting_after=ID`, with the id of the previous page's last item (Stripe):
/// ``PaginationStyle/Kind/afterLastItem(parameter:)``. The token is that id.
struct AfterLastItem: ListContinuation {
    /// The query parameter the last item's id goes back as.
    var parameter: String

    static let name = "afterLastItem"
    static var template: PaginationStyle? { .afterLastItem() }
    static var detectionRules: [DetectionRule] { [DetectionRule(rank: 100) { $0.afterLastItem(evidence: $1) }] }

    var description: String { "after the last item's id (?\(parameter)=)" }
    var parameters: Set<String> { [parameter] }
    var asksByInference: Bool { true }

    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL {
        guard let token else { return try source.settingQuery([:]) }
        return try source.settingQuery([parameter: token.rawValue])
    }

    func usualEndSignal(_ style: PaginationStyle) -> PaginationStyle.EndSignal? { .hasMore(keyPath: "has_more") }

    var olderItemsParameter: String? { parameter }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        guard let last = page.items.last?.key.description, !last.isEmpty else { return nil }
        guard last != page.token?.rawValue || source.readsRepeatedCursors else {
            throw NetworkError(.notAdvancing(token: last), url: page.requestURL)
        }
        return PageToken(last)
    }

    func endSigns(_ style: PaginationStyle) -> [String] { [] }

    func askedText(_ token: PageToken) -> String { "?\(parameter)=\(token.rawValue.shortenedForErrors)" }
}
