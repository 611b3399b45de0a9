import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A JSON body sent by POST that pages by a cursor, a page number or an offset in it:
/// ``PaginationStyle/Kind/bodyCursor(_:)``. The token is the cursor's JSON text, or the number.
struct PostedBodies: ListContinuation {
    /// The body and where it pages.
    var cursor: PaginationStyle.BodyCursor

    static let name = "post-body"
    static var template: PaginationStyle? { nil }

    var description: String {
        switch cursor.paging {
        case .page(let path, let firstPage)?: "page numbers in a POST body (at \(path), from \(firstPage))"
        case .offset(let path)?: "offsets in a POST body (at \(path))"
        case .cursor?, nil: "cursor in a POST body (at \(cursor.cursorPath))"
        }
    }

    var isPosted: Bool { true }
    var sendsPageSize: Bool { false }
    var pagesByCursor: Bool { !cursor.isNumbered }

    func isAddressable(_ style: PaginationStyle) -> Bool {
        switch cursor.paging {
        case .page?: true
        case .offset?: style.pageSize != nil
        case .cursor?, nil: false
        }
    }

    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        switch cursor.paging {
        case .page(_, let firstPage)?: PageToken(firstPage + index)
        case .offset?: source.style.pageSize.map { PageToken(index * $0) }
        case .cursor?, nil: source.learntCursorToken(forPageAt: index)
        }
    }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        switch cursor.paging {
        case .page?: Self.pages(of: total, size: pageItemCount)
        case .offset?: Self.pages(of: total, size: source.style.pageSize)
        case .cursor?, nil: source.learntCursorPageCount(forTotal: total)
        }
    }

    /// The list's URL: the token travels in the POST body.
    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL { source.url }

    func prepare(_ request: inout URLRequest, for token: PageToken?, in source: HTTPPageSource) throws {
        var body = try JSONBody(cursor.body, url: source.url)
        if let path = cursor.pageSizePath, let pageSize = source.style.pageSize {
            body.set(pageSize, at: PaginationStyle.components(path))
        }
        switch cursor.paging {
        case .offset(let path):
            body.set(token?.intValue ?? 0, at: PaginationStyle.components(path))
        case .page(let path, let firstPage):
            body.set(token?.intValue ?? firstPage, at: PaginationStyle.components(path))
        case .cursor, nil:
            if let token {
                guard
                    let value = try? JSONSerialization.jsonObject(
                        with: Data(token.rawValue.utf8), options: .fragmentsAllowed)
                else { throw NetworkError(.invalidToken(token.rawValue), url: source.url) }
                body.set(value, at: PaginationStyle.components(cursor.cursorPath))
            }
        }
        request.posting(try body.data(url: source.url))
    }

    func usualEndSignal(_ style: PaginationStyle) -> PaginationStyle.EndSignal? { .hasMore(keyPath: "has_more") }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        if cursor.isNumbered { return source.numberedNextToken(cursor.paging ?? .cursor, page: page) }
        let value: JSONScanner.Value?
        let document: JSONScanner
        switch cursor.nextCursor {
        case .response(let keyPath):
            document = page.scanner
            value = page.scanner.value(at: PaginationStyle.components(keyPath))
        case .lastItem(let keyPath):
            guard let last = page.items.last, let itemScanner = try? JSONScanner(last.json) else { return nil }
            document = itemScanner
            value = itemScanner.value(at: PaginationStyle.components(keyPath))
        }
        guard let value, value.kind != .null, document.string(value) != "" else { return nil }
        let next = String(decoding: document.data(of: value), as: UTF8.self)
        guard !next.isEmpty else { return nil }
        guard next != page.token?.rawValue else {
            throw NetworkError(.notAdvancing(token: next), url: page.requestURL)
        }
        return PageToken(next)
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        if cursor.isNumbered {
            return (style.totalKeyPath.map { ["the total at \($0) reached"] } ?? [])
                + (style.pageSize.map { ["a page shorter than \($0)"] } ?? [])
        }
        switch cursor.nextCursor {
        case .response(let keyPath): return ["no cursor at \(keyPath)"]
        case .lastItem(let keyPath): return ["no \(keyPath) on the last item"]
        }
    }

    /// The body but its cursor and page size, and where the cursor goes.
    func fingerprint(in source: HTTPPageSource) -> String? {
        var hash = FNV1a()
        var body = (try? JSONBody(cursor.body, url: source.url)) ?? JSONBody()
        body.remove(PaginationStyle.components(cursor.cursorPath))
        if let path = cursor.pageSizePath { body.remove(PaginationStyle.components(path)) }
        for part in [body.canonicalText, cursor.cursorPath] {
            hash.combine(part.utf8)
            hash.combine(0)
        }
        return "post:\(hash.hex.prefix(12))"
    }

    /// Beside the `--post-body` the list was detected with: the number's path in it, and the size's.
    func options(_ style: PaginationStyle) -> [(name: String, value: String)]? {
        var options: [(name: String, value: String)]
        switch cursor.paging {
        case .offset(let path)?: options = [("--style", Offsets.name), ("--page-param", path)]
        case .page(let path, _)?: options = [("--page-param", path)]
        case .cursor?, nil: return nil
        }
        if let path = cursor.pageSizePath { options.append(("--page-size-param", path)) }
        return options
    }
}
