import Foundation

/// The routes that answer as stock paginators of web frameworks do, several of which do not say
/// in the body how to ask for the next page: Django Ninja, flask-smorest, Litestar, PostgREST.
extension FixturePage {
    /// The body and headers of a stock route; `nil` for bad parameters.
    func renderStock() -> (body: String, headers: [String: String])? {
        switch route {
        case .ninjaOffset:
            guard let offset = integer("offset", default: 0), offset >= 0,
                let limit = integer("limit", default: configuration.pageSize), limit > 0
            else { return nil }
            return (ninjaBody(positions: offset..<offset + limit), [:])
        case .ninjaPage:
            guard let page = integer("page", default: 1), page >= 1,
                let size = integer("page_size", default: configuration.pageSize), size > 0
            else { return nil }
            return (ninjaBody(positions: (page - 1) * size..<page * size), [:])
        case .smorest:
            return renderSmorest()
        case .litestarCursor:
            guard let start = integer("cursor", default: 0), start >= 0,
                let size = integer("results_per_page", default: configuration.pageSize), size > 0
            else { return nil }
            let end = min(start + size, total)
            let cursor = end < total ? String(isAdvancing ? end : start) : "null"
            let items = catalog.json(positions: start..<max(start, end))
            return (#"{"items":\#(items),"results_per_page":\#(size),"cursor":\#(cursor)}"#, [:])
        case .litestarClassic:
            guard let page = integer("current_page", default: 1), page >= 1,
                let size = integer("page_size", default: configuration.pageSize), size > 0
            else { return nil }
            let pages = (total + size - 1) / size
            let items = catalog.json(positions: (page - 1) * size..<page * size)
            let body = #"{"items":\#(items),"page_size":\#(size),"current_page":\#(page),"total_pages":\#(pages)}"#
            return (body, [:])
        case .contentRange:
            guard let offset = integer("offset", default: 0), offset >= 0,
                let limit = integer("limit", default: configuration.pageSize), limit > 0
            else { return nil }
            let end = min(offset + limit, total)
            let range = end > offset ? "\(offset)-\(end - 1)/\(total)" : "*/\(total)"
            return (catalog.json(positions: offset..<max(offset, end)), ["Content-Range": range])
        default:
            return nil
        }
    }

    private func ninjaBody(positions: Range<Int>) -> String {
        #"{"items":\#(catalog.json(positions: positions)),"count":\#(total)}"#
    }

    /// flask-smorest: the page's items as a bare array, the pagination in `X-Pagination`.
    private func renderSmorest() -> (body: String, headers: [String: String])? {
        guard let page = integer("page", default: 1), page >= 1,
            let size = integer("page_size", default: configuration.pageSize), size > 0
        else { return nil }
        let pages = max(1, (total + size - 1) / size)
        var fields = [
            #""total":\#(total)"#, #""total_pages":\#(pages)"#, #""first_page":1"#, #""last_page":\#(pages)"#,
            #""page":\#(page)"#,
        ]
        if page > 1 { fields.append(#""previous_page":\#(page - 1)"#) }
        if page < pages { fields.append(#""next_page":\#(isAdvancing ? page + 1 : page)"#) }
        let items = catalog.json(positions: (page - 1) * size..<page * size)
        return (items, ["X-Pagination": "{" + fields.joined(separator: ", ") + "}"])
    }
}

extension FixtureServer.Route {
    /// Whether the route answers as a stock framework's paginator (see `FixturePage.renderStock()`).
    var isStock: Bool {
        switch self {
        case .ninjaOffset, .ninjaPage, .smorest, .litestarCursor, .litestarClassic, .contentRange: true
        default: false
        }
    }
}
