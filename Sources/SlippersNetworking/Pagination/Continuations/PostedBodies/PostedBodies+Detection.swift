import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPPageSource {
    /// The source and first page of a list paged by a page number or an offset in a JSON body,
    /// with what its first response shows read as a GET list's is (``PaginationStyle/explain(url:body:headers:)``):
    /// the items, unless the style's path holds an array; the total, unless the style names one;
    /// the id, unless the items carry the style's. `nil` for another style.
    func detectingNumberedBody() async throws -> (
        source: HTTPPageSource, firstPage: Page<RawItem>, detection: PaginationStyle.Detection
    )? {
        guard case .bodyCursor(let cursor) = style.kind, cursor.isNumbered else { return nil }
        let request = try urlRequest(for: nil)
        let url = self.url
        let response = try await sendingClient().send(request, home: homeOrigin) { $0 }
        let scanner: JSONScanner
        do {
            scanner = try JSONScanner(response.body)
        } catch {
            throw NetworkError(decoding: error, body: response.body, url: url)
        }
        let explained = PaginationStyle.explain(url: url, body: response.body, headers: response.headers)
        var source = self
        var reasons: [String] = []
        switch cursor.paging {
        case .offset(let path)?: reasons.append("an offset at \(path) in the POST body")
        case .page(let path, let firstPage)?:
            reasons.append("a page number at \(path) in the POST body, from \(firstPage)")
        default: break
        }
        if scanner.value(at: PaginationStyle.components(style.itemsKeyPath))?.kind != .array {
            source.style.itemsKeyPath = explained.style.itemsKeyPath
        }
        if source.style.totalKeyPath == nil { source.style.totalKeyPath = explained.style.totalKeyPath }
        let items =
            scanner.value(at: PaginationStyle.components(source.style.itemsKeyPath))
            .map(scanner.elements(of:)) ?? []
        if let first = items.first, first.kind == .object, scanner.member(style.idField, of: first) == nil {
            source.style.idField = explained.style.idField
        }
        reasons += explained.reasons.filter { $0.hasPrefix("items ") }
        if let total = source.style.totalKeyPath { reasons.append("the total at \(total)") }
        let page = try source.page(from: response, token: nil, requestURL: url, validators: PageValidators())
        let detection = PaginationStyle.Detection(
            style: source.style, confidence: .high, reasons: reasons, itemCount: page.items.count)
        return (source, page, detection)
    }
}

extension PostedBodies {
    /// A body paged by a number has its items, total and id read from its first response (unless
    /// the style gives its total); for ``HTTPPageSource/PageTwoCheck/every``, any body has its
    /// page 2 asked for, and the detection says whether it brought new items.
    func detect(posted source: HTTPPageSource, pageTwo: HTTPPageSource.PageTwoCheck) async throws
        -> HTTPPageSource.DetectedList
    {
        let every = pageTwo == .every
        var found: HTTPPageSource.DetectedList
        if cursor.isNumbered, every || source.style.totalKeyPath == nil,
            let numbered = try await source.detectingNumberedBody()
        {
            found = HTTPPageSource.DetectedList(
                source: numbered.source, firstPage: numbered.firstPage, secondPage: nil,
                detection: numbered.detection, advanced: false)
        } else if every {
            let first = try await source.fetch(.first).page
            found = source.given(reason: "a cursor at \(description)", firstPage: first)
        } else {
            return source.given(reason: "given by the caller: asked for by POST")
        }
        guard every else { return found }
        guard let first = found.firstPage, let next = first.nextToken else {
            found.detection.reasons.append("the first page is the last")
            return found
        }
        let second = try await found.source.fetch(PageRequest(token: next)).page
        let firstKeys = Set(first.items.map(\.key))
        found.secondPage = second
        found.advanced = second?.items.contains { !firstKeys.contains($0.key) } ?? false
        found.detection.tried = [found.advanced ? "page 2 brought new items" : "page 2 brought no new items"]
        found.detection.reasons.append("asked for page 2: " + found.detection.tried[0])
        return found
    }
}
