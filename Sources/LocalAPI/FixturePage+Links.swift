import Foundation

/// The routes that give the next page's URL where the body or headers keep links: an array of
/// link objects (OGC API Features), a header that holds the URL alone, and a `Link` header beside
/// totals in headers (WordPress's REST API).
extension FixturePage {
    /// The body and headers of a linked route; `nil` for bad parameters.
    func renderLinked() -> (body: String, headers: [String: String])? {
        switch route {
        case .ogc: renderOGC()
        case .nextPageHeader: renderNextPageHeader()
        case .headerTotals: renderHeaderTotals()
        default: nil
        }
    }

    /// The refusal of a request the route's server does not serve, as it words it: WordPress's
    /// `400` for a page past the last; `nil` for any other request.
    func refusal() -> (status: Int, body: String)? {
        guard route == .headerTotals, let (page, size) = wpParameters() else { return nil }
        let pages = max(1, (total + size - 1) / size)
        guard page > pages else { return nil }
        let message = "The page number requested is larger than the number of pages available."
        return (400, #"{"code":"rest_post_invalid_page_number","message":"\#(message)","data":{"status":400}}"#)
    }

    /// OGC API Features: `?offset=N&limit=M` (`?page=` is ignored), the items under `features`,
    /// `numberMatched` and `numberReturned`, and a `links` array whose `rel: "next"` names the next page.
    private func renderOGC() -> (body: String, headers: [String: String])? {
        guard let offset = integer("offset", default: 0), offset >= 0,
            let limit = integer("limit", default: configuration.pageSize), limit > 0
        else { return nil }
        let end = min(offset + limit, total)
        let returned = max(0, end - offset)
        var kept: [String: Int] = [:]
        if query["limit"] != nil { kept["limit"] = limit }
        var links = [
            #"{"rel":"self","href":"\#(url(kept.merging(["offset": offset]) { a, _ in a }))","type":"application/geo+json"}"#
        ]
        if end < total {
            let next = isAdvancing ? end : offset
            links.append(
                #"{"rel":"next","href":"\#(url(kept.merging(["offset": next]) { a, _ in a }))","#
                    + #""type":"application/geo+json","title":"next page"}"#)
        }
        let features = catalog.json(positions: offset..<max(offset, end))
        let body =
            #"{"type":"FeatureCollection","features":\#(features),"numberMatched":\#(total),"#
            + #""numberReturned":\#(returned),"links":[\#(links.joined(separator: ","))]}"#
        return (body, [:])
    }

    /// A bare array, newest first, whose next page is only in a `Next-Page` header: the full URL
    /// with an opaque `_token` (`?page=` is ignored); no such header on the last page.
    private func renderNextPageHeader() -> (body: String, headers: [String: String])? {
        guard let limit = integer("limit", default: configuration.pageSize), limit > 0 else { return nil }
        var start = 0
        if let token = query["_token"] {
            guard let after = Self.decodeCursor(token) else { return nil }
            start = after
        }
        let end = min(start + limit, total)
        let ids = (start..<max(start, end)).map { catalog.id(at: total - 1 - $0) }
        let items = "[" + ids.map { FixtureItem.json(id: $0, title: catalog.titles[$0]) }.joined(separator: ",") + "]"
        var headers: [String: String] = [:]
        if end < total {
            let next = Self.encodeCursor(afterID: isAdvancing ? end : start)
            var components = URLComponents(string: "http://127.0.0.1:\(port)\(route.rawValue)")
            var items = [URLQueryItem(name: "_token", value: next)]
            if let asked = query["limit"] { items.insert(URLQueryItem(name: "limit", value: asked), at: 0) }
            components?.queryItems = items
            headers["Next-Page"] = components?.string
        }
        return (items, headers)
    }

    /// WordPress's REST API: `?page=N&per_page=M` over a bare array, the total and page count in
    /// `X-WP-Total` and `X-WP-TotalPages`, `Link` with `rel="next"` and `rel="prev"` (no `rel="last"`).
    private func renderHeaderTotals() -> (body: String, headers: [String: String])? {
        guard let (page, size) = wpParameters() else { return nil }
        let pages = max(1, (total + size - 1) / size)
        var kept: [String: Int] = [:]
        if query["per_page"] != nil { kept["per_page"] = size }
        var links: [String] = []
        if page > 1 { links.append(#"<\#(url(kept.merging(["page": page - 1]) { a, _ in a }))>; rel="prev""#) }
        if page < pages {
            links.append(#"<\#(url(kept.merging(["page": isAdvancing ? page + 1 : page]) { a, _ in a }))>; rel="next""#)
        }
        var headers = ["X-WP-Total": String(total), "X-WP-TotalPages": String(pages)]
        if !links.isEmpty { headers["Link"] = links.joined(separator: ", ") }
        return (catalog.json(positions: (page - 1) * size..<page * size), headers)
    }

    private func wpParameters() -> (page: Int, size: Int)? {
        guard let page = integer("page", default: 1), page >= 1,
            let size = integer("per_page", default: configuration.pageSize), size > 0
        else { return nil }
        return (page, size)
    }
}

extension FixtureServer.Route {
    /// Whether the route keeps its next link in a links array or a header of its own (see `FixturePage.renderLinked()`).
    var isLinked: Bool {
        switch self {
        case .ogc, .nextPageHeader, .headerTotals: true
        default: false
        }
    }

    /// Whether the route lists its newest items first: ids from the highest down.
    public var listsNewestFirst: Bool { self == .nextPageHeader }
}
