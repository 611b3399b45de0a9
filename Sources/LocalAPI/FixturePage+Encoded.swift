import Foundation

/// The routes whose page and size are members of an object encoded in one query parameter, `q`.
///
/// Neither reads `?page=`: a client that sends it gets the first page again. Each checks the
/// members it does not page by: a `filters` or `order_by` member sent back changed is refused
/// (`400`), as a server that cannot read it would.
extension FixtureServer {
    /// The rison filter a client may send in `/rison`'s `q`, exactly: a quoted string with `!` escapes in it.
    public static let risonFilter = "filters:!((col:title,opr:ct,value:'it!'s a!!b'))"
    /// The JSON order a client may send in `/json-query`'s `q`, exactly.
    public static let jsonOrder = #""order_by":[{"field":"id","direction":"asc"}]"#
}

extension FixturePage {

    /// The body of an encoded route; `nil` for bad parameters.
    func renderEncoded() -> (body: String, headers: [String: String])? {
        switch route {
        case .rison: renderRison()
        case .jsonQuery: renderJSONQuery()
        default: nil
        }
    }

    /// `?q=(page:N,page_size:M)` in rison, pages from 0, answering `count`, `ids` and `result`.
    private func renderRison() -> (body: String, headers: [String: String])? {
        var page = 0
        var size = configuration.pageSize
        if let text = query["q"] {
            guard text.hasPrefix("("), text.hasSuffix(")") else { return nil }
            let members = Self.topLevelMembers(String(text.dropFirst().dropLast()))
            for member in members {
                if member.hasPrefix("page:") {
                    guard let number = Int(member.dropFirst(5)), number >= 0 else { return nil }
                    page = number
                } else if member.hasPrefix("page_size:") {
                    guard let number = Int(member.dropFirst(10)), number > 0 else { return nil }
                    size = number
                } else if member.hasPrefix("filters:") {
                    guard member == FixtureServer.risonFilter else { return nil }
                }
            }
        }
        let start = min(page * size, total)
        let positions = start..<min(total, start + size)
        let ids = positions.map { String(catalog.id(at: $0)) }.joined(separator: ",")
        let items = catalog.json(positions: positions)
        let body =
            #"{"count":\#(total),"ids":[\#(ids)],"label_columns":{"id":"Id","title":"Title"},"#
            + #""list_columns":["id","title"],"order_columns":["id"],"result":\#(items)}"#
        return (body, [:])
    }

    /// `?q={"page":N,"per_page":M}` in JSON, pages from 1, answering `items` and `total`.
    private func renderJSONQuery() -> (body: String, headers: [String: String])? {
        var page = 1
        var size = configuration.pageSize
        if let text = query["q"] {
            guard text.hasPrefix("{"), text.hasSuffix("}"),
                let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            else { return nil }
            if let value = object["page"] {
                guard let number = value as? Int, number >= 1 else { return nil }
                page = number
            }
            if let value = object["per_page"] {
                guard let number = value as? Int, number > 0 else { return nil }
                size = number
            }
            if object["order_by"] != nil, !text.contains(FixtureServer.jsonOrder) { return nil }
        }
        let start = (page - 1) * size
        let items = catalog.json(positions: start..<start + size)
        return (#"{"items":\#(items),"total":\#(total)}"#, [:])
    }

    /// The members of a rison object's inside, split at its top-level commas.
    private static func topLevelMembers(_ text: String) -> [String] {
        var members: [String] = []
        var current = ""
        var depth = 0
        var isQuoted = false
        var isEscaped = false
        for character in text {
            if isQuoted {
                if isEscaped {
                    isEscaped = false
                } else if character == "!" {
                    isEscaped = true
                } else if character == "'" {
                    isQuoted = false
                }
            } else if character == "'" {
                isQuoted = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if character == ",", depth == 0 {
                members.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { members.append(current) }
        return members
    }
}

extension FixtureServer.Route {
    /// Whether the route pages by members of an object encoded in its `q` parameter.
    var isEncoded: Bool { self == .rison || self == .jsonQuery }

    /// The query of the route's first page as a client that knows the list asks for it: the
    /// encoded `q` of the routes that page inside one (a URL without it says nothing of how
    /// the list pages); empty for the other routes.
    public var firstPageQuery: [String: String] {
        switch self {
        case .rison: ["q": "(page:0)"]
        case .jsonQuery: ["q": #"{"page":1}"#]
        default: [:]
        }
    }
}
