import Foundation
import Slippers

/// `?cursor=C`, with the next cursor in the body at `keyPath`:
/// ``PaginationStyle/Kind/cursor(parameter:keyPath:)``. The token is the cursor.
///
/// With no parameter name, a continuation object: every member of the object at `keyPath` goes
/// back as a parameter of its own, and the token is those members, form-encoded.
struct Cursors: ListContinuation {
    /// The query parameter the cursor goes back as; empty for a continuation object.
    var parameter: String
    /// Where the body holds the next cursor.
    var keyPath: String

    static let name = "cursor"
    static var template: PaginationStyle? { .cursor() }
    static var detectionRules: [DetectionRule] {
        [
            DetectionRule(rank: 80) { $0.continuationObject(evidence: $1) },
            DetectionRule(rank: 90) { $0.cursorStyle(evidence: $1) },
        ]
    }

    /// Whether the cursor is a continuation object, each member sent back as a parameter.
    var isContinuationObject: Bool { parameter.isEmpty }

    var description: String {
        isContinuationObject
            ? "continuation (each member of \(keyPath) sent back as a parameter)"
            : "cursor (?\(parameter)= from \(keyPath))"
    }

    var parameters: Set<String> { isContinuationObject ? [] : [parameter] }
    var asksByInference: Bool { true }
    var pagesByCursor: Bool { !isContinuationObject }

    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        source.learntCursorToken(forPageAt: index)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        source.learntCursorPageCount(forTotal: total)
    }

    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL {
        guard let token else { return try source.settingQuery([:]) }
        // A continuation object: the token is its members, each sent back as a parameter of its own.
        if isContinuationObject { return try source.settingContinuation(token.rawValue) }
        return try source.settingQuery([parameter: token.rawValue])
    }

    func usualEndSignal(_ style: PaginationStyle) -> PaginationStyle.EndSignal? { .hasMore(keyPath: "has_more") }

    /// A cursor at the same member, whatever parameter it goes back as.
    func readsNextToken(like other: PaginationStyle.Kind) -> Bool {
        guard case .cursor(_, let otherPath) = other else { return false }
        return otherPath == keyPath
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        let path = PaginationStyle.components(keyPath)
        let text =
            isContinuationObject
            ? HTTPPageSource.continuationToken(page.scanner, at: path) : page.scanner.scalarText(at: path)
        guard let cursor = text, !cursor.isEmpty else { return nil }
        guard cursor != page.token?.rawValue || source.readsRepeatedCursors else {
            throw NetworkError(.notAdvancing(token: cursor), url: page.requestURL)
        }
        return PageToken(cursor)
    }

    func endSigns(_ style: PaginationStyle) -> [String] { ["no cursor at \(keyPath)"] }

    func options(_ style: PaginationStyle) -> [(name: String, value: String)]? {
        [("--cursor-path", keyPath), ("--cursor-param", isContinuationObject ? "*" : parameter)]
    }

    func askedText(_ token: PageToken) -> String {
        isContinuationObject ? "the members of \(keyPath)" : "?\(parameter)= from \(keyPath)"
    }

    var probeAdvice: String? {
        isContinuationObject
            ? "no option describes a list whose server answers page 1 to the members of \(keyPath) sent back "
                + "(slippers detect URL shows what was seen)"
            : "the server takes the cursor back under another name: give it with --cursor-path \(keyPath) "
                + "--cursor-param NAME"
    }
}
