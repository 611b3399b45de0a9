import Foundation

/// One page of the fixture API, rendered for a route and a query.
struct FixturePage {
    let route: FixtureServer.Route
    let query: [String: String]
    let configuration: FixtureServer.Configuration
    let catalog: FixtureCatalog
    let port: UInt16
    let isAdvancing: Bool
    /// The query as sent, percent-escapes and all, for routes that decode it their own way.
    var rawQuery = ""

    /// The body, and the headers the route sends beside it (`Link`, `X-Pagination`…); `nil` for bad parameters.
    func render() -> (body: String, headers: [String: String])? {
        if let stock = route.isStock ? renderStock() : nil { return stock }
        if route.isProbed { return renderProbed() }
        if route.isStructural { return renderStructural() }
        if route == .headerCursor { return renderHeaderCursor() }
        if route.isLinked { return renderLinked() }
        if route.isEncoded { return renderEncoded() }
        return renderWithLink().map { rendered in (rendered.body, rendered.link.map { ["Link": $0] } ?? [:]) }
    }

    private func renderWithLink() -> (body: String, link: String?)? {
        switch route {
        case .page: renderPage()
        case .offset: renderOffset()
        case .cursor: renderCursor()
        case .next: renderNext()
        case .link: renderLink()
        case .stripe: renderStripe()
        case .slack: renderSlack()
        case .jsonapi: renderJSONAPI()
        case .odata: renderOData()
        case .spring: renderSpring()
        case .drf: renderDRF()
        case .ninjaOffset, .ninjaPage, .smorest, .litestarCursor, .litestarClassic, .contentRange: nil
        case .ogc, .nextPageHeader, .headerTotals: nil
        case .rison, .jsonQuery, .metaPages, .opaquePages, .continuation, .fieldFilters: nil
        case .renamedContinuation, .namedItems, .linkArrays, .missingArrayEnd, .headerCursor: nil
        }
    }

    func integer(_ name: String, default value: Int) -> Int? {
        guard let text = query[name] else { return value }
        return Int(text)
    }

    var total: Int { catalog.count }

    private func pageParameters(sizeName: String) -> (page: Int, size: Int)? {
        guard let page = integer("page", default: configuration.firstPage),
            let size = integer(sizeName, default: configuration.pageSize), size > 0, page >= configuration.firstPage
        else { return nil }
        return (page, size)
    }

    private func renderPage() -> (body: String, link: String?)? {
        guard let (page, size) = pageParameters(sizeName: "per_page") else { return nil }
        let start = (page - configuration.firstPage) * size
        let items = catalog.json(positions: start..<start + size)
        guard let keyPath = configuration.itemsKeyPath else { return (items, nil) }
        let totalPages = (total + size - 1) / size
        let metadata = #""page":\#(page),"per_page":\#(size),"total":\#(total),"total_pages":\#(totalPages)"#
        return (envelope(items: items, keyPath: keyPath, metadata: metadata), nil)
    }

    private func renderOffset() -> (body: String, link: String?)? {
        guard let offset = integer("offset", default: 0), offset >= 0,
            let asked = integer("limit", default: configuration.pageSize), asked > 0
        else { return nil }
        let limit = min(asked, configuration.maxLimit ?? asked)
        let items = catalog.json(positions: offset..<offset + limit)
        let metadata = #""limit":\#(limit),"offset":\#(offset),"total":\#(total)"#
        return (envelope(items: items, keyPath: configuration.itemsKeyPath ?? "results", metadata: metadata), nil)
    }

    private func renderCursor() -> (body: String, link: String?)? {
        guard let limit = integer("limit", default: configuration.pageSize), limit > 0 else { return nil }
        var start = 0
        if let cursor = query["cursor"] {
            guard let afterID = Self.decodeCursor(cursor) else { return nil }
            if afterID == 0 {
                start = 0
            } else {
                guard let position = catalog.position(of: afterID) else { return nil }
                start = position + 1
            }
        }
        let end = min(start + limit, total)
        let items = catalog.json(positions: start..<end)
        let hasMore = end < total
        var next = hasMore && end > start ? "\"\(Self.encodeCursor(afterID: catalog.id(at: end - 1)))\"" : "null"
        if !isAdvancing { next = "\"\(query["cursor"] ?? Self.encodeCursor(afterID: 0))\"" }
        let metadata = #""has_more":\#(hasMore || !isAdvancing),"next_cursor":\#(next)"#
        return (envelope(items: items, keyPath: configuration.itemsKeyPath ?? "results", metadata: metadata), nil)
    }

    private func renderNext() -> (body: String, link: String?)? {
        guard let offset = integer("offset", default: 0), offset >= 0,
            let asked = integer("limit", default: configuration.pageSize), asked > 0
        else { return nil }
        let limit = min(asked, configuration.maxLimit ?? asked)
        let items = catalog.json(positions: offset..<offset + limit)
        var next = offset + limit < total ? "\"\(url(["limit": limit, "offset": offset + limit]))\"" : "null"
        if !isAdvancing { next = "\"\(url(query.compactMapValues { Int($0) }))\"" }
        let previous = offset > 0 ? "\"\(url(["limit": limit, "offset": max(0, offset - limit)]))\"" : "null"
        let metadata = #""count":\#(total),"next":\#(next),"previous":\#(previous)"#
        return (envelope(items: items, keyPath: configuration.itemsKeyPath ?? "results", metadata: metadata), nil)
    }

    /// DRF's page numbers: the first page is the bare URL, the next one `?page=2`, with `page_size` kept when asked.
    private func renderDRF() -> (body: String, link: String?)? {
        guard let (page, size) = pageParameters(sizeName: "page_size") else { return nil }
        let start = (page - configuration.firstPage) * size
        let items = catalog.json(positions: start..<start + size)
        let lastPage = configuration.firstPage + max(0, (total + size - 1) / size - 1)
        var kept: [String: Int] = [:]
        if query["page_size"] != nil { kept["page_size"] = size }
        func link(_ number: Int) -> String {
            number == configuration.firstPage && kept.isEmpty
                ? "\"http://127.0.0.1:\(port)\(route.rawValue)\""
                : "\"\(url(kept.merging(["page": number]) { a, _ in a }))\""
        }
        var next = page < lastPage ? link(page + 1) : "null"
        if !isAdvancing { next = link(page) }
        let previous = page > configuration.firstPage ? link(page - 1) : "null"
        let metadata = #""count":\#(total),"next":\#(next),"previous":\#(previous)"#
        return (envelope(items: items, keyPath: configuration.itemsKeyPath ?? "results", metadata: metadata), nil)
    }

    private func renderLink() -> (body: String, link: String?)? {
        guard let (page, size) = pageParameters(sizeName: "per_page") else { return nil }
        let start = (page - configuration.firstPage) * size
        let items = catalog.json(positions: start..<start + size)
        let lastPage = configuration.firstPage + max(0, (total + size - 1) / size - 1)
        var links: [String] = []
        if page < lastPage || !isAdvancing {
            let nextPage = isAdvancing ? page + 1 : page
            links.append(#"<\#(url(["page": nextPage, "per_page": size]))>; rel="next"; title="next page""#)
        }
        links.append(#"<\#(url(["page": lastPage, "per_page": size]))>; rel="last""#)
        links.append(#"<\#(url(["page": configuration.firstPage, "per_page": size]))>; rel="first""#)
        if page > configuration.firstPage {
            links.append(#"<\#(url(["page": page - 1, "per_page": size]))>; rel="prev""#)
        }
        return (items, links.joined(separator: ", "))
    }

    func url(_ parameters: [String: Int]) -> String {
        let query = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        return "http://127.0.0.1:\(port)\(route.rawValue)?\(query)"
    }

    /// Wraps the items at a key path such as `data.items`, with the metadata at the root.
    private func envelope(items: String, keyPath: String, metadata: String) -> String {
        let keys = keyPath.split(separator: ".").map(String.init)
        guard let first = keys.first else { return items }
        var nested = items
        for key in keys.dropFirst().reversed() { nested = "{\"\(key)\":\(nested)}" }
        return "{\"\(first)\":\(nested),\(metadata)}"
    }

    static func encodeCursor(afterID: Int) -> String {
        Data("after:\(afterID)".utf8).base64EncodedString()
    }

    static func decodeCursor(_ cursor: String) -> Int? {
        guard let data = Data(base64Encoded: cursor) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("after:") else { return nil }
        return Int(text.dropFirst("after:".count))
    }
}
