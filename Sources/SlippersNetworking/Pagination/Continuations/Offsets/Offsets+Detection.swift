import Foundation
import Slippers

extension Detector {
    /// `offset`, `skip` or `_start` in the URL, or `offset` or `limit` in the body.
    mutating func offsets(evidence: DetectionEvidence) -> Candidate? {
        guard let scanner else { return nil }
        let bodyHasOffset = scanner.value(at: ["offset"]) != nil || scanner.value(at: ["limit"]) != nil
        let offsetInURL = queryParameter(["offset", "skip", "_start"])
        guard offsetInURL != nil || bodyHasOffset else { return nil }
        reasons.append(offsetInURL.map { "\($0) in the URL" } ?? "offset or limit in the body")
        let limit = evidence.urlPageSize ?? scanner.int(at: ["limit"])
        if let total = evidence.total { reasons.append("the total at \(total)") }
        noteSignal(evidence.endSignal)
        return (
            Style(
                kind: .offset(parameter: offsetInURL ?? "offset"),
                pageSizeParameter: evidence.sizeParameter ?? "limit", pageSize: limit, totalKeyPath: evidence.total,
                endSignal: evidence.endSignal),
            evidence.total != nil || announced.total != nil ? .high : .medium
        )
    }
}
