import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Range: items=0-49` request headers, each page's range and the total read from its
/// `Content-Range`: ``PaginationStyle/Kind/range(unit:)``. The token is the offset.
struct Ranges: PagesByOffset {
    /// The unit of the ranges, such as `items`.
    var unit: String

    static let name = "range"
    static var template: PaginationStyle? { .range() }
    static var detectionRules: [DetectionRule] { [DetectionRule(rank: 20) { $0.ranges(evidence: $1) }] }

    var description: String { "Range headers (Range: \(unit)=N-M, the total in Content-Range)" }
    var sendsPageSize: Bool { false }

    /// The list's URL: the range travels in a header.
    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL { source.url }

    func prepare(_ request: inout URLRequest, for token: PageToken?, in source: HTTPPageSource) throws {
        let offset = token?.intValue ?? 0
        let last = source.style.pageSize.map { String(offset + $0 - 1) } ?? ""
        request.setValue("\(unit)=\(offset)-\(last)", forHTTPHeaderField: "Range")
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        ["the total in Content-Range reached"] + (style.pageSize.map { ["a range shorter than \($0) \(unit)"] } ?? [])
    }
}
