import Foundation
import Slippers

extension Detector {
    /// OData's `@odata.nextLink`, or an `@odata.context` without it: a next-URL list, items under `value`.
    mutating func odata(evidence: DetectionEvidence) -> Candidate? {
        guard let scanner else { return nil }
        let total = evidence.total
        for key in ["@odata.nextLink", "odata.nextLink"] {
            if let text = scanner.string(at: [key]), looksLikeURL(text) {
                reasons.append("OData's \(key)")
                return (
                    Style(
                        kind: .nextURL(keyPath: JSONKeyPath.escaping(key)), itemsKeyPath: "value",
                        totalKeyPath: total),
                    .high
                )
            }
        }
        guard scanner.value(at: ["@odata.context"]) != nil, scanner.value(at: ["value"])?.kind == .array else {
            return nil
        }
        reasons.append("OData's @odata.context, with no @odata.nextLink: one page, or the last")
        // A count above the page then says the list ends short of it: a sync says so, never "complete".
        return (
            Style(
                kind: .nextURL(keyPath: JSONKeyPath.escaping("@odata.nextLink")), itemsKeyPath: "value",
                totalKeyPath: total),
            .medium
        )
    }

    /// An array of link objects, each with its `rel` (OGC API's, Siren's `links`, or deeper down as
    /// `data.@links.next`): the one whose rel is next; at the root, one with no next link says the
    /// page is the list's only, or last, one.
    mutating func linkArray(evidence: DetectionEvidence) -> Candidate? {
        guard let scanner else { return nil }
        let total = evidence.total
        for key in Self.linkArrayKeys {
            guard let links = scanner.value(at: [key]), links.kind == .array else { continue }
            if let text = scanner.linkURL(at: [key]), !text.isEmpty {
                reasons.append(#"a link with rel "next" in the \#(key) array"#)
                return (Style(kind: .nextURL(keyPath: JSONKeyPath.escaping(key)), totalKeyPath: total), .high)
            }
            // Link objects without a next one: the server says this page is the list's only, or last, one.
            if scanner.elements(of: links).contains(where: {
                $0.kind == .object && scanner.member("rel", of: $0) != nil
            }) {
                reasons.append(#"a \#(key) array with no rel "next": the list's only (or last) page"#)
                return (Style(kind: .nextURL(keyPath: JSONKeyPath.escaping(key)), totalKeyPath: total), .medium)
            }
        }
        for path in scanner.linkArrays(in: scanner.root) where path.count > 1 {
            guard let text = scanner.linkURL(at: path), !text.isEmpty else { continue }
            let keyPath = JSONKeyPath(keys: path).text
            reasons.append(#"a link with rel "next" in the \#(keyPath) array"#)
            return (Style(kind: .nextURL(keyPath: keyPath), totalKeyPath: total), .high)
        }
        return nil
    }

    /// A URL at a member named for the next page (`next`, `next_url`… at the root or in a metadata
    /// object), as a string or a link object's `href`; or a null `next` beside a `previous`, a
    /// next-URL list on its only (or last) page, as Django REST framework answers.
    mutating func nextMember(evidence: DetectionEvidence) -> Candidate? {
        guard let scanner else { return nil }
        let total = evidence.total
        for path in candidatePaths(Style.nextURLKeys) + otherNextMembers(scanner) {
            if let text = scanner.linkURL(at: path), looksLikeURL(text) {
                let keyPath = JSONKeyPath(keys: path).text
                reasons.append("a next page's URL at \(keyPath)")
                return (Style(kind: .nextURL(keyPath: keyPath), totalKeyPath: total), .high)
            }
        }
        if scanner.value(at: ["next"])?.kind == .null, let previous = scanner.value(at: ["previous"]),
            previous.kind == .null || scanner.string(previous).map(looksLikeURL) == true
        {
            reasons.append("a null next beside previous: a next-URL list on its last page")
            return (Style(kind: .nextURL(keyPath: "next"), totalKeyPath: total), .medium)
        }
        return nil
    }

    /// A null `next` at the root, and nothing else that pages, on a list's first page: the list is that
    /// page. Filed as a next-URL list, which asks for no other page now and follows `next` once it has a URL.
    mutating func nullNextOnly(evidence: DetectionEvidence) -> Candidate? {
        guard let scanner, evidence.hasMore == nil, scanner.value(at: ["next"])?.kind == .null,
            !["page", "offset", "cursor", "after", "page_token", "starting_after"].contains(where: {
                queryValue($0) != nil
            })
        else { return nil }
        let otherCursor = Style.cursorKeys.contains { key, _ in
            key != "next" && candidatePaths([key]).contains { scanner.string(at: $0) != nil }
        }
        guard !otherCursor else { return nil }
        reasons.append("a null next and nothing else that pages: the whole list is on this page")
        return (Style(kind: .nextURL(keyPath: "next"), totalKeyPath: evidence.total), .medium)
    }
}
