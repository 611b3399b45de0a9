import Foundation
import Slippers

/// `?cursor=C`, with the next cursor in a response header: ``PaginationStyle/Kind/headerCursor(header:parameter:)``.
/// The token is the cursor.
///
/// For APIs that keep the body a bare list and say how it continues beside it, as `X-Next-Cursor`,
/// `X-Continuation-Token` or `Next-Token`; the list ends on the page whose response has no such header.
struct HeaderCursors: ListContinuation {
    /// The response header that holds the next cursor, such as `X-Next-Cursor`.
    var header: String
    /// The query parameter the cursor goes back as.
    var parameter: String

    static let name = "headerCursor"
    static let defaultHeader = "X-Next-Cursor"
    static var template: PaginationStyle? {
        PaginationStyle(kind: .headerCursor(header: defaultHeader, parameter: "cursor"), pageSizeParameter: "limit")
    }
    static var detectionRules: [DetectionRule] { [DetectionRule(rank: 35) { $0.headerCursor(evidence: $1) }] }

    var description: String { "cursor in the \(header) header (?\(parameter)=)" }
    var parameters: Set<String> { [parameter] }
    var asksByInference: Bool { true }
    var pagesByCursor: Bool { true }

    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        source.learntCursorToken(forPageAt: index)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        source.learntCursorPageCount(forTotal: total)
    }

    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL {
        try source.settingQuery(token.map { [parameter: $0.rawValue] } ?? [:])
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        guard let cursor = page.response.header(header)?.trimmingCharacters(in: .whitespaces), !cursor.isEmpty else {
            return nil
        }
        guard cursor != page.token?.rawValue || source.readsRepeatedCursors else {
            throw NetworkError(.notAdvancing(token: cursor), url: page.requestURL)
        }
        return PageToken(cursor)
    }

    /// Another parameter for the same header's cursor reads page 1's token as this one does.
    func readsNextToken(like other: PaginationStyle.Kind) -> Bool {
        guard case .headerCursor(let otherHeader, _) = other else { return false }
        return otherHeader.equalsIgnoringASCIICase(header)
    }

    func endSigns(_ style: PaginationStyle) -> [String] { ["no \(header) header"] }

    /// `--style headerCursor` for the usual header; no option names another header.
    func options(_ style: PaginationStyle) -> [(name: String, value: String)]? {
        guard header == Self.defaultHeader else { return nil }
        return [("--style", Self.name)] + (parameter == "cursor" ? [] : [("--cursor-param", parameter)])
    }

    func askedText(_ token: PageToken) -> String { "?\(parameter)= from the \(header) header" }

    /// No option names the parameter a header's cursor goes back as: a list of one page is all
    /// that can be said by hand.
    var probeAdvice: String? {
        "the server takes the cursor of the \(header) header back under a name no option gives; --style "
            + "singlePage if the list is one page (slippers detect URL shows what was seen)"
    }
}
