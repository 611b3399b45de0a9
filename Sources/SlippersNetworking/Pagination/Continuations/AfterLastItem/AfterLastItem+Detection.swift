import Foundation
import Slippers

extension Detector {
    /// A `has_more` boolean, items under `data` and no page number in the URL: the next page starts
    /// after the last item's id (Stripe's `starting_after`).
    mutating func afterLastItem(evidence: DetectionEvidence) -> Candidate? {
        guard let scanner, let hasMore = evidence.hasMore, queryValue("page") == nil else { return nil }
        let isStripeList = scanner.string(at: ["object"]) == "list"
        guard isStripeList || scanner.value(at: ["data"])?.kind == .array else { return nil }
        let sent = ["starting_after", "after"].first { queryValue($0) != nil } ?? "starting_after"
        let keyPath = JSONKeyPath(keys: hasMore).text
        reasons.append(
            "\(keyPath) with items under data and no cursor: the next page starts after the last item's id "
                + "(?\(sent)=)")
        if isStripeList { reasons.append(#""object": "list", as Stripe answers"#) }
        return (
            Style(
                kind: .afterLastItem(parameter: sent), pageSizeParameter: evidence.sizeParameter ?? "limit",
                pageSize: evidence.urlPageSize, totalKeyPath: evidence.total, endSignal: .hasMore(keyPath: keyPath)),
            isStripeList ? .high : .medium
        )
    }
}
