import Foundation
import Slippers

extension Detector {
    /// A `Content-Range` or `Accept-Ranges` header in a unit of the server's: ranges asked for by `Range` headers.
    mutating func ranges(evidence: DetectionEvidence) -> Candidate? {
        guard let unit = announced.rangeUnit else { return nil }
        reasons.append("ranges in \(unit) (Content-Range, Accept-Ranges): asked for by Range: \(unit)=N-M headers")
        return (Style.range(unit: unit, pageSize: announced.rangeLength), .high)
    }
}
