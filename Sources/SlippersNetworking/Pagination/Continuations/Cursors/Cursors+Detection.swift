import Foundation
import Slippers

extension Detector {
    /// A cursor in the body: at a member named as cursors are (``PaginationStyle/cursorKeys``), else
    /// an opaque string at a member named for the next page or where a page ends; with the other
    /// parameters it may go back as, as alternatives.
    mutating func cursorStyle(evidence: DetectionEvidence) -> Candidate? {
        guard let scanner else { return nil }
        let (total, sizeParameter, urlPageSize) = (evidence.total, evidence.sizeParameter, evidence.urlPageSize)
        let endSignal = evidence.endSignal
        for (key, parameter) in Style.cursorKeys {
            for path in candidatePaths([key]) {
                guard let value = scanner.value(at: path),
                    value.kind == .string || value.kind == .null || (value.kind == .number && key != "next")
                else { continue }
                if value.kind == .string, let text = scanner.string(value), looksLikeURL(text) { continue }
                // A null `next` is the last page of a next-URL list as often as of a cursor list.
                if key == "next", value.kind == .null { continue }
                let sent = Self.cursorParameters.first { queryValue($0) != nil } ?? parameter
                let keyPath = JSONKeyPath(keys: path).text
                reasons.append(
                    value.kind == .null
                        ? "a null cursor at \(keyPath)" : "a cursor at \(keyPath), sent back as ?\(sent)=")
                noteSignal(endSignal)
                let style = Style(
                    kind: .cursor(parameter: sent, keyPath: keyPath),
                    pageSizeParameter: sizeParameter ?? bodySizeParameter(), pageSize: urlPageSize,
                    totalKeyPath: total, endSignal: endSignal)
                if value.kind != .null {
                    cursorAlternatives(of: style, sent: sent, cursor: scanner.scalarText(at: path))
                }
                return (style, value.kind == .null ? .medium : .high)
            }
        }
        // An opaque string at a member named for the next page (next_page, nextPage…) is a cursor,
        // whatever its name says: it is no page number. The parameter it goes back as is found by asking.
        for path in otherNextMembers(scanner) {
            guard let text = scanner.string(at: path), !text.isEmpty, Int(text) == nil, !looksLikeURL(text) else {
                continue
            }
            let keyPath = JSONKeyPath(keys: path).text
            let sent = Self.cursorParameters.first { queryValue($0) != nil } ?? "cursor"
            reasons.append(
                "an opaque string at \(keyPath): a cursor, sent back as ?\(sent)= unless page 2 says otherwise")
            noteSignal(endSignal)
            let style = Style(
                kind: .cursor(parameter: sent, keyPath: keyPath),
                pageSizeParameter: sizeParameter ?? bodySizeParameter(), pageSize: urlPageSize,
                totalKeyPath: total, endSignal: endSignal)
            cursorAlternatives(of: style, sent: sent, cursor: text)
            return (style, .medium)
        }
        return nil
    }

    /// The query parameters a cursor is commonly sent back as: one of them in the URL is the cursor's.
    static let cursorParameters = [
        "cursor", "after", "page_token", "pageToken", "starting_after", "start_cursor", "continuation",
        "next_token", "pagination_token", "from", "since", "marker",
    ]

    /// The parameters a cursor is tried under when the one sent first does not advance, in order:
    /// the words servers take a continuation back as.
    static let cursorVocabulary = [
        "from", "cursor", "after", "since", "token", "page_token", "pageToken", "marker", "start", "continuation",
        "next", "_cursor", "@cursor",
    ]

    /// The other parameters a cursor may be sent back as, tried when page 2 asked with `sent` does
    /// not advance: a parameter of the URL whose value is of the cursor's make (its first character,
    /// not its value: `?from=s0` beside `"end": "s10"`), the member's own name, then
    /// ``cursorVocabulary``; with the first, at most ``HTTPPageSource/maximumProbes`` tries in all.
    mutating func cursorAlternatives(of style: Style, sent: String, cursor: String?) {
        guard case .cursor(_, let keyPath) = style.kind else { return }
        let member = Style.components(keyPath).last.map { [$0] } ?? []
        let own = query.filter { item in
            guard let value = item.value, let cursor, let first = value.first, value != cursor else { return false }
            return first == cursor.first && !Style.pageSizeParameters.contains(item.name)
        }.map(\.name)
        for parameter in otherCursorParameters(than: sent, preferring: own + member) {
            var alternative = style
            alternative.kind = .cursor(parameter: parameter, keyPath: keyPath)
            alternatives.append(alternative)
        }
    }

    /// The parameters a cursor sent back as `sent` is tried under when page 2 does not advance:
    /// `preferred`, then ``cursorVocabulary``, each once, at most ``HTTPPageSource/maximumProbes``
    /// tries with the first; none when the URL names its cursor's parameter already.
    func otherCursorParameters(than sent: String, preferring preferred: [String] = []) -> [String] {
        guard queryParameter(Self.cursorParameters) == nil else { return [] }
        var names: [String] = []
        for name in preferred + Self.cursorVocabulary where name != sent && !names.contains(name) {
            names.append(name)
        }
        return Array(names.prefix(HTTPPageSource.maximumProbes - 1))
    }

    /// A continuation object: an object at a member named for continuing (`continue`, `continuation`,
    /// `next`…) whose members are all strings or numbers, none a URL. Every member goes back as a query
    /// parameter of its own (``PaginationStyle/Kind/cursor(parameter:keyPath:)`` with no parameter name).
    mutating func continuationObject(evidence: DetectionEvidence) -> Candidate? {
        guard let scanner, scanner.root.kind == .object else { return nil }
        let (total, sizeParameter) = (evidence.total, evidence.sizeParameter)
        for key in scanner.keys(of: scanner.root) {
            let name = key.lowercased()
            guard name.hasPrefix("continu") || name.hasPrefix("next"), let object = scanner.value(at: [key]),
                object.kind == .object
            else { continue }
            let members = scanner.keys(of: object)
            let scalars = members.compactMap { scanner.member($0, of: object) }.filter {
                ($0.kind == .string && !(scanner.string($0).map(looksLikeURL) ?? true)) || $0.kind == .number
            }
            guard !members.isEmpty, scalars.count == members.count else { continue }
            let keyPath = JSONKeyPath.escaping(key)
            reasons.append(
                "a continuation object at \(keyPath): each of its members (\(members.joined(separator: ", "))) is "
                    + "sent back as a parameter of its own")
            return (
                Style(
                    kind: .cursor(parameter: "", keyPath: keyPath), pageSizeParameter: sizeParameter,
                    totalKeyPath: total),
                .high
            )
        }
        return nil
    }
}
