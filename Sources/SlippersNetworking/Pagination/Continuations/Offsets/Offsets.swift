import Foundation
import Slippers

/// `?offset=N&limit=M`: ``PaginationStyle/Kind/offset(parameter:)``. The token is the offset.
struct Offsets: PagesByOffset {
    /// The query parameter that carries the offset.
    var parameter: String

    static let name = "offset"
    static var template: PaginationStyle? { .offset() }
    static var detectionRules: [DetectionRule] { [DetectionRule(rank: 120) { $0.offsets(evidence: $1) }] }

    var description: String { "offsets (?\(parameter)=N)" }
    var parameters: Set<String> { [parameter] }
    var asksByInference: Bool { true }
    var mayBeOnePage: Bool { true }

    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL {
        let offset = try token.map(source.integer) ?? 0
        return try source.settingQuery([parameter: String(offset)])
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        (style.pageSize.map { ["a page shorter than \($0)"] } ?? [])
            + (style.totalKeyPath.map { ["the total at \($0) reached"] } ?? [])
    }

    func options(_ style: PaginationStyle) -> [(name: String, value: String)]? {
        [("--style", Self.name)] + (parameter == "offset" ? [] : [("--page-param", parameter)])
    }

    func askedText(_ token: PageToken) -> String { "?\(parameter)=\(token.rawValue)" }

    /// Only with a page size parameter to send the wider size under.
    func overlappingRequest(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest? {
        guard source.style.pageSizeParameter != nil else { return nil }
        return widened(for: token, in: source)
    }
}
