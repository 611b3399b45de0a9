import Foundation
import Slippers

/// How page 2 of a list guessed to page by number is asked for again when the server refuses
/// the parameter's name, or numbers pages inside an object the URL does not hold.
extension HTTPPageSource {
    /// The same page parameter from 0 asks page 2 as `?page=1`, which page 1 from 1 answers again:
    /// asked first, it tells the two apart (asked second, a list from 0 would skip its page 1).
    static func askFromZeroFirst(_ candidates: inout [PaginationStyle], style: PaginationStyle) {
        guard case .pageNumber(let parameter, 1) = style.kind,
            let index = candidates.firstIndex(where: { $0.kind == .pageNumber(parameter: parameter, firstPage: 0) })
        else { return }
        candidates.insert(candidates.remove(at: index), at: 0)
    }

    /// After `refused`, a page parameter whose refusal names it (`400 page isn't a valid field name`):
    /// the candidates after `position` that send the same parameter are dropped, since its name and
    /// not its value was refused, and the underscore-prefixed names come next (`_page`, then `__page`,
    /// each with its page size as `_page_size`, `__page_size`), as servers that take every other
    /// parameter for a field to filter on name their own. A prefixed name refused in turn adds no
    /// other. The candidates stay bounded by ``maximumProbes``.
    ///
    /// - returns: The candidates dropped.
    @discardableResult
    static func replaceRefusedParameter(
        of refused: PaginationStyle, refusal: NetworkError, in candidates: inout [PaginationStyle], after position: Int
    ) -> [PaginationStyle] {
        guard case .pageNumber(let parameter, _) = refused.kind, case .http(_, let snippet) = refusal.kind,
            names(snippet, parameter)
        else { return [] }
        let sameParameter = { (style: PaginationStyle) -> Bool in
            if case .pageNumber(parameter, _) = style.kind { return true }
            return false
        }
        let later = candidates[(position + 1)...]
        let replaced = [refused] + later.filter(sameParameter)
        candidates = Array(candidates[...position]) + later.filter { !sameParameter($0) }
        guard !parameter.hasPrefix("_"), !parameter.contains(".") else { return later.filter(sameParameter) }
        var prefixed: [PaginationStyle] = []
        for prefix in ["_", "__"] {
            for style in replaced {
                guard case .pageNumber(_, let firstPage) = style.kind else { continue }
                var renamed = style
                renamed.kind = .pageNumber(parameter: prefix + parameter, firstPage: firstPage)
                renamed.pageSizeParameter = prefix + (style.pageSizeParameter ?? "page_size")
                if !candidates.contains(renamed), !prefixed.contains(renamed) { prefixed.append(renamed) }
            }
        }
        candidates.insert(contentsOf: prefixed, at: position + 1)
        return later.filter(sameParameter)
    }

    /// Whether `text` names `parameter` as a word of its own: not inside a longer name
    /// (`page` is not named by `__page` nor by `page_size`).
    static func names(_ text: String, _ parameter: String) -> Bool {
        func isNamePart(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
        var rest = text[...]
        while let range = rest.range(of: parameter) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before.map(isNamePart) ?? false), !(after.map(isNamePart) ?? false) { return true }
            rest = text[range.upperBound...]
        }
        return false
    }

    /// The caller's page inside an encoded object that the URL does not hold (`--page-param q.page`
    /// on a URL without `?q=`), counted from 0: nothing numbers the first page the URL asked for, so
    /// page 2 is asked for from 0 first (`?q=(page:1)`), then from 1. `nil` for any other style.
    static func unnumberedEncodedPage(_ style: PaginationStyle, url: URL) -> PaginationStyle? {
        guard case .pageNumber(let parameter, 1) = style.kind, let dot = parameter.firstIndex(of: "."),
            dot != parameter.startIndex
        else { return nil }
        let names = (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map(\.name)
        guard !names.contains(String(parameter[..<dot])), !names.contains(parameter) else { return nil }
        var fromZero = style
        fromZero.kind = .pageNumber(parameter: parameter, firstPage: 0)
        return fromZero
    }
}
