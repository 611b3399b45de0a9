import Foundation
import Slippers

extension Detector {
    /// A `Link` header with `rel="next"`, or a header that holds the next page's URL alone
    /// (`Next-Page`, `X-Next-Page`, `X-Next`).
    mutating func linkHeader(evidence: DetectionEvidence) -> Candidate? {
        guard let next = NextLink.url(header: header) else { return nil }
        reasons.append(
            next.header == "Link"
                ? #"a Link header with rel="next""# : "the next page's URL in the \(next.header) header")
        return (
            Style(
                kind: .linkHeader, pageSizeParameter: evidence.sizeParameter ?? "per_page",
                pageSize: evidence.urlPageSize, totalKeyPath: evidence.total),
            .high
        )
    }
}
