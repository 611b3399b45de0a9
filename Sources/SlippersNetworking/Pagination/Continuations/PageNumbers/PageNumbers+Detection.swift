import Foundation
import Slippers

extension Detector {
    /// flask-smorest's `X-Pagination` header over a bare array: page numbers, `?page=` and `?page_size=`,
    /// the total and page count in the header.
    mutating func xPagination(evidence: DetectionEvidence) -> Candidate? {
        guard announced.names.contains("X-Pagination") else { return nil }
        let parameter = queryParameter(Style.pageParameters) ?? "page"
        let firstPage = queryValue(parameter).flatMap { Int($0) } == 0 ? 0 : 1
        reasons.append("the X-Pagination header: page numbers, with the total and page count in it")
        return (
            Style(
                kind: .pageNumber(parameter: parameter, firstPage: firstPage),
                pageSizeParameter: evidence.sizeParameter ?? "page_size", pageSize: evidence.urlPageSize),
            .high
        )
    }

    /// A page number or an offset inside a rison or JSON object in a query parameter
    /// (`?q=(page:0,page_size:100)`), read by ``PaginationStyle/encodedPaging(in:)``.
    mutating func encodedPaging(evidence: DetectionEvidence) -> Candidate? {
        guard scanner != nil, let encoded = Style.encodedPaging(in: url) else { return nil }
        reasons.append(encoded.reason)
        if let total = evidence.total { reasons.append("the total at \(total)") }
        noteSignal(evidence.endSignal)
        return (
            Style(
                kind: encoded.kind, pageSizeParameter: encoded.pageSizeParameter, pageSize: encoded.pageSize,
                totalKeyPath: evidence.total, endSignal: evidence.endSignal),
            evidence.total != nil || announced.total != nil ? .high : .medium
        )
    }

    /// Page numbers, the documented default: `page` from 1, from 0 when the URL or the body numbers
    /// the first page 0; with the other ways page 2 may be asked for as alternatives, when nothing
    /// names the page.
    mutating func pageNumbers(evidence: DetectionEvidence) -> Candidate {
        let (sizeParameter, urlPageSize, total, endSignal) = (
            evidence.sizeParameter, evidence.urlPageSize, evidence.total, evidence.endSignal
        )
        guard let scanner else {
            reasons.append("no pagination fields seen; guessing page numbers")
            return (Style.pageNumber(pageSizeParameter: sizeParameter ?? "per_page", pageSize: urlPageSize), .low)
        }
        var firstPage = 1
        let currentPage = firstPath(["page", "number", "current_page", "currentPage", "page_number", "pageNumber"]) {
            scanner.int(at: $0) != nil
        }
        let urlParameter = queryParameter(Style.pageParameters)
        // The parameter the URL names, else the conventional `page`; the body's own name for the page
        // number is evidence, not proof: it is tried when page 2 by `page` does not advance.
        let parameter = urlParameter ?? "page"
        var bodyParameter: String?
        if let urlParameter, let page = queryValue(urlParameter).flatMap({ Int($0) }) {
            firstPage = page == 0 ? 0 : 1
            reasons.append("\(urlParameter)=\(page) in the URL")
        } else if let currentPage, let number = scanner.int(at: currentPage) {
            firstPage = number == 0 ? 0 : 1
            let name = currentPage.last ?? "page"
            if name != "number", name != parameter { bodyParameter = name }
            reasons.append(
                "the body numbers this page \(number) at \(JSONKeyPath(keys: currentPage).text): asked for as "
                    + "?\(parameter)=" + (bodyParameter.map { ", else as ?\($0)=" } ?? ""))
        }
        var sizeName = sizeParameter
        var pageSize: Int?
        if let sizeParameter, let size = queryValue(sizeParameter).flatMap({ Int($0) }) {
            pageSize = size
        } else if let path = firstPath(Self.bodySizeKeys, where: { scanner.int(at: $0) != nil }), let last = path.last {
            pageSize = scanner.int(at: path)
            sizeName = sizeName ?? last
            reasons.append("the page size at \(JSONKeyPath(keys: path).text), sent back as ?\(last)=")
        }
        if let total { reasons.append("the total at \(total)") }
        noteSignal(endSignal)
        let evidence = [currentPage != nil, total != nil || announced.total != nil, endSignal != nil].filter { $0 }
            .count
        if evidence == 0, urlParameter == nil {
            reasons.append(
                "no pagination fields seen; guessing page numbers, then offsets (a sync that finds page 2 "
                    + "repeating page 1 exactly in every way takes the list for one page)")
        }
        let style = Style(
            kind: .pageNumber(parameter: parameter, firstPage: firstPage), pageSizeParameter: sizeName,
            pageSize: pageSize, totalKeyPath: total, endSignal: endSignal)
        if let bodyParameter {
            var alternative = style
            alternative.kind = .pageNumber(parameter: bodyParameter, firstPage: firstPage)
            alternatives.append(alternative)
        }
        if urlParameter == nil, currentPage == nil {
            // Nothing names the page: ?page=, else the conventional offsets, ?offset= then ?skip=
            // (each with ?limit=), whichever brings page 2; a list is taken for one page only when
            // every one of them brings page 1 again.
            // A list that counts more items than its page, whose server ignores all of these, may page
            // inside an object encoded in one query parameter: rison's `?q=(page:1)` from 0 is tried last,
            // created by the request (see `HTTPPageSource.setQueryItems`), when the URL holds no `q`.
            let encodedToo = (total != nil || announced.total != nil) && queryValue("q") == nil
            reasons.append(
                "nothing names the page: page 2 is asked for by ?page=, else by ?offset=, else by ?skip="
                    + (encodedToo ? ", else inside ?q=(page:1) (a rison object)" : ""))
            for name in ["offset", "skip"] {
                alternatives.append(
                    Style(
                        kind: .offset(parameter: name), pageSizeParameter: "limit", totalKeyPath: total,
                        endSignal: endSignal))
            }
            if encodedToo {
                alternatives.append(
                    Style(
                        kind: .pageNumber(parameter: "q.page", firstPage: 0), pageSizeParameter: "q.page_size",
                        totalKeyPath: total, endSignal: endSignal))
            }
        }
        let confidence: Style.Detection.Confidence =
            evidence >= 2 ? .high : (evidence == 1 || urlParameter != nil) ? .medium : .low
        var isPageCount = false
        if case .pageCount? = endSignal { isPageCount = true }
        if urlParameter == nil, currentPage == nil, total == nil, announced.total == nil, !isPageCount {
            // Nothing numbers this page nor counts the list, so nothing would show a page skipped:
            // ?page=1 is asked first, in case pages count from 0 (it is then page 2), then ?page=2.
            reasons.append("nothing numbers this page: ?page=1 is asked first, in case pages count from 0")
            var fromZero = style
            fromZero.kind = .pageNumber(parameter: parameter, firstPage: 0)
            alternatives.insert(fromZero, at: 0)
        }
        return (style, confidence)
    }
}
