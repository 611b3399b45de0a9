import Foundation
import Slippers

/// `?offset=N&limit=M`: ``PaginationStyle/Kind/offset(parameter:)``. The token is the offset.
struct Offsets: ListContinuation {
    /// The query parameter that carries the offset.
    var parameter: String

    static let name = "offset"
    static var template: PaginationStyle? { .offset() }
    static var detectionRules: [DetectionRule] { [DetectionRule(rank: 120) { $0.offsets(evidence: $1) }] }

    var description: String { "offsets (?\(parameter)=N)" }
    var parameters: Set<String> { [parameter] }
    var asksByInference: Bool { true }
    var mayBeOnePage: Bool { true }
    func isAddressable(_ style: PaginationStyle) -> Bool { style.pageSize != nil }

    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        Self.offsetToken(forPageAt: index, pageSize: source.style.pageSize)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        Self.pages(of: total, size: source.style.pageSize)
    }

    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL {
        let offset = try token.map(source.integer) ?? 0
        return try source.settingQuery([parameter: String(offset)])
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        try Self.nextOffset(after: page, in: source)
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        (style.pageSize.map { ["a page shorter than \($0)"] } ?? [])
            + (style.totalKeyPath.map { ["the total at \($0) reached"] } ?? [])
    }

    func options(_ style: PaginationStyle) -> [(name: String, value: String)]? {
        [("--style", Self.name)] + (parameter == "offset" ? [] : [("--page-param", parameter)])
    }

    func askedText(_ token: PageToken) -> String { "?\(parameter)=\(token.rawValue)" }

    func overlappingRequest(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest? {
        guard source.style.pageSizeParameter != nil else { return nil }
        return Self.widened(for: token, in: source)
    }

    /// The offset of the page at `index` on pages of `pageSize`; `nil` with no page size, as pages may hold any number.
    static func offsetToken(forPageAt index: Int, pageSize: Int?) -> PageToken? {
        guard let pageSize, pageSize > 0 else { return nil }
        return PageToken(index * pageSize)
    }

    /// The offset after a page: none once the total is reached, or after a page shorter than the page size.
    static func nextOffset(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        let offset = try page.token.map(source.integer) ?? 0
        let nextOffset = offset + page.items.count
        if let total = page.total {
            if nextOffset >= total { return nil }
        } else if let limit = source.style.pageSize, page.items.count < limit {
            return nil
        }
        return PageToken(nextOffset)
    }

    /// The page at an offset asked for from the item before it, one item more.
    static func widened(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest? {
        guard let offset = token?.intValue, offset >= 1, let size = source.style.pageSize, size > 0 else { return nil }
        var wider = source
        wider.style.pageSize = size + 1
        return HTTPPageSource.OverlappingRequest(
            source: wider, token: PageToken(offset - 1), offset: offset - 1, size: size + 1, nextPageToken: nil)
    }
}
