import Foundation
import Slippers

extension Detector {
    /// The response headers that commonly hold a next cursor, compared without case.
    static let cursorHeaders = [
        "X-Next-Cursor", "Next-Cursor", "X-Continuation-Token", "Continuation-Token", "X-Continuation",
        "X-Next-Token", "Next-Token", "X-Next-Page-Token",
    ]

    /// A next cursor in a response header, an opaque value and no URL: sent back under the URL's
    /// cursor parameter when it has one, else as `?cursor=`, with the vocabulary's other names as
    /// alternatives that page 2 decides between.
    mutating func headerCursor(evidence: DetectionEvidence) -> Candidate? {
        for name in Self.cursorHeaders {
            guard let value = header(name)?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
                !looksLikeURL(value)
            else { continue }
            let sent = Self.cursorParameters.first { queryValue($0) != nil } ?? "cursor"
            reasons.append("a cursor in the \(name) header, sent back as ?\(sent)=")
            let style = Style(
                kind: .headerCursor(header: name, parameter: sent), pageSizeParameter: evidence.sizeParameter,
                pageSize: evidence.urlPageSize, totalKeyPath: evidence.total, endSignal: evidence.endSignal)
            for parameter in otherCursorParameters(than: sent) {
                var alternative = style
                alternative.kind = .headerCursor(header: name, parameter: parameter)
                alternatives.append(alternative)
            }
            return (style, .medium)
        }
        return nil
    }
}
