import Foundation

/// The routes whose first response leaves the way of asking for page 2 to be found by asking:
/// a page number the body names under another name than the parameter, opaque strings at members
/// named `*_page`, a continuation object sent back member by member, and parameters of unusual
/// names that the server validates.
extension FixturePage {
    /// The body and headers of a probed route; `nil` for bad parameters.
    func renderProbed() -> (body: String, headers: [String: String])? {
        switch route {
        case .metaPages: renderMetaPages()
        case .opaquePages: renderOpaquePages()
        case .continuation: renderContinuation()
        case .fieldFilters: renderFieldFilters()
        default: nil
        }
    }

    /// The refusal of a request the route's server does not serve: `/field-filters` takes every
    /// query parameter but `__page` and `__page_size` for a field to filter on, and refuses a name
    /// that is none (`400 page isn't a valid field name`); `nil` for any other request.
    func probedRefusal() -> (status: Int, body: String)? {
        guard route == .fieldFilters else { return nil }
        guard let name = query.keys.sorted().first(where: { !["__page", "__page_size"].contains($0) }) else {
            return nil
        }
        return (400, #"{"ok":false,"error":"\#(name) isn't a valid field name","status":400}"#)
    }

    /// `?page=N&per_page=M` (a `current_page` parameter is ignored), answering `items` and a `meta`
    /// object with `current_page`, `next_page`, `prev_page`, `total_pages` and `total_count`.
    private func renderMetaPages() -> (body: String, headers: [String: String])? {
        guard let page = integer("page", default: 1), page >= 1,
            let size = integer("per_page", default: configuration.pageSize), size > 0
        else { return nil }
        let pages = max(1, (total + size - 1) / size)
        let next = page < pages ? String(page + 1) : "null"
        let previous = page > 1 ? String(page - 1) : "null"
        let meta =
            #"{"current_page":\#(page),"next_page":\#(next),"prev_page":\#(previous),"total_pages":\#(pages),"#
            + #""total_count":\#(total)}"#
        return (#"{"items":\#(catalog.json(positions: (page - 1) * size..<page * size)),"meta":\#(meta)}"#, [:])
    }

    /// `?cursor=C&limit=M`, answering `items`, `total` and opaque strings at `current_page`,
    /// `current_page_backwards`, `previous_page` and `next_page` (`null` at the ends); the `*_page`
    /// strings go back as `?cursor=`, and `?page=`, `?after=` are ignored.
    private func renderOpaquePages() -> (body: String, headers: [String: String])? {
        guard let limit = integer("limit", default: configuration.pageSize), limit > 0 else { return nil }
        var start = 0
        if let cursor = query["cursor"] {
            guard let position = Self.decodeCursor(cursor), position >= 0 else { return nil }
            start = position
        }
        let end = min(start + limit, total)
        func token(_ position: Int) -> String { "\"\(Self.encodeCursor(afterID: position))\"" }
        let next = end < total ? token(isAdvancing ? end : start) : "null"
        let previous = start > 0 ? token(max(0, start - limit)) : "null"
        let members = [
            #""items":\#(catalog.json(positions: start..<max(start, end)))"#, #""total":\#(total)"#,
            #""current_page":\#(token(start))"#,
            #""current_page_backwards":"\#(Data("before:\(end)".utf8).base64EncodedString())""#,
            #""previous_page":\#(previous)"#, #""next_page":\#(next)"#,
        ]
        return ("{" + members.joined(separator: ",") + "}", [:])
    }

    /// The text of a continuation value: characters that a URL must encode (`é`, `&`, `+`, `?`)
    /// around the position it continues from.
    static func continuationValue(position: Int) -> String { "Café&+?_\(position)" }

    /// A continuation protocol: `?xlimit=M`, answering `batchcomplete`, the items (`pageid`, `ns`,
    /// `title`) under `query.pages` and, but on the last page, a `continue` object whose members
    /// (`xcontinue`, `continue`) must all come back as query parameters, form-decoded (a `+` left
    /// as it is reads as a space, and is refused).
    private func renderContinuation() -> (body: String, headers: [String: String])? {
        guard let limit = integer("xlimit", default: configuration.pageSize), limit > 0 else { return nil }
        let form = Self.formDecoded(rawQuery)
        var start = 0
        if let text = form["xcontinue"] {
            let prefix = Self.continuationValue(position: 0).dropLast()
            guard text.hasPrefix(prefix), form["continue"] == "-||", let position = Int(text.dropFirst(prefix.count))
            else { return nil }
            start = position
        }
        let end = min(start + limit, total)
        let pages = (start..<max(start, end)).map { position in
            let id = catalog.id(at: position)
            return #"{"pageid":\#(id),"ns":0,"title":"Item \#(id)"}"#
        }
        var members = [#""batchcomplete":"""#]
        if end < total {
            let value = Self.continuationValue(position: isAdvancing ? end : start)
            members.append(#""continue":{"xcontinue":"\#(value)","continue":"-||"}"#)
        }
        members.append(#""query":{"pages":[\#(pages.joined(separator: ","))]}"#)
        return ("{" + members.joined(separator: ",") + "}", [:])
    }

    /// A query string read as an HTML form is: `+` is a space, then percent-escapes are decoded.
    static func formDecoded(_ query: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            values[decoded(parts[0])] = parts.count > 1 ? decoded(parts[1]) : ""
        }
        return values
    }

    /// `?__page=N&__page_size=M`, answering the items under `rows` and nothing else; any other
    /// parameter is a field to filter on, refused when it names none (see ``probedRefusal()``).
    private func renderFieldFilters() -> (body: String, headers: [String: String])? {
        guard let page = integer("__page", default: 1), page >= 1,
            let size = integer("__page_size", default: configuration.pageSize), size > 0
        else { return nil }
        return (#"{"rows":\#(catalog.json(positions: (page - 1) * size..<page * size))}"#, [:])
    }
}

extension FixtureServer.Route {
    /// Whether the route's way of asking for page 2 is found by asking (see `FixturePage.renderProbed()`).
    var isProbed: Bool {
        switch self {
        case .metaPages, .opaquePages, .continuation, .fieldFilters: true
        default: false
        }
    }
}
