import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Range: items=0-49` request headers, each page's range and the total read from its
/// `Content-Range`: ``PaginationStyle/Kind/range(unit:)``. The token is the offset.
struct Ranges: ListContinuation {
    /// The unit of the ranges, such as `items`.
    var unit: String

    static let name = "range"
    static var template: PaginationStyle? { .range() }
    static var detectionRules: [DetectionRule] { [DetectionRule(rank: 20) { $0.ranges(evidence: $1) }] }

    var description: String { "Range headers (Range: \(unit)=N-M, the total in Content-Range)" }
    var sendsPageSize: Bool { false }
    func isAddressable(_ style: PaginationStyle) -> Bool { style.pageSize != nil }

    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        Offsets.offsetToken(forPageAt: index, pageSize: source.style.pageSize)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        Self.pages(of: total, size: source.style.pageSize)
    }

    /// The list's URL: the range travels in a header.
    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL { source.url }

    func prepare(_ request: inout URLRequest, for token: PageToken?, in source: HTTPPageSource) throws {
        let offset = token?.intValue ?? 0
        let last = source.style.pageSize.map { String(offset + $0 - 1) } ?? ""
        request.setValue("\(unit)=\(offset)-\(last)", forHTTPHeaderField: "Range")
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        try Offsets.nextOffset(after: page, in: source)
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        ["the total in Content-Range reached"] + (style.pageSize.map { ["a range shorter than \($0) \(unit)"] } ?? [])
    }

    func overlappingRequest(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest? {
        Offsets.widened(for: token, in: source)
    }
}
