import Foundation

/// The routes that name nothing a vocabulary of paging words knows, so that only the structure of a
/// response, checked by asking, tells how the list continues: a continuation at `end` taken back as
/// `?from=`, items keyed by a name and no id, items beside arrays of `{rel, uri}` links, and an end
/// shown by a page past the total that has no items member.
extension FixturePage {
    /// The body and headers of a structural route; `nil` for bad parameters.
    func renderStructural() -> (body: String, headers: [String: String])? {
        switch route {
        case .renamedContinuation: renderRenamedContinuation()
        case .namedItems: renderNamedItems()
        case .linkArrays: renderLinkArrays()
        case .missingArrayEnd: renderMissingArrayEnd()
        default: nil
        }
    }

    /// A position in a continuation token of `/renamed-continuation`: `s` and the position.
    private func position(fromToken token: String?) -> Int? {
        guard let token else { return 0 }
        guard token.hasPrefix("s"), let position = Int(token.dropFirst()), position >= 0 else { return nil }
        return position
    }

    /// `?from=T&limit=M`, answering the items under `chunk`, the page's own token at `start` and the
    /// next page's at `end` (absent on the last page); `?page=`, `?cursor=` and `?end=` are ignored.
    private func renderRenamedContinuation() -> (body: String, headers: [String: String])? {
        guard let start = position(fromToken: query["from"]),
            let limit = integer("limit", default: configuration.pageSize), limit > 0
        else { return nil }
        let end = min(start + limit, total)
        var members = [#""chunk":\#(catalog.json(positions: start..<max(start, end)))"#, #""start":"s\#(start)""#]
        if end < total { members.append(#""end":"s\#(isAdvancing ? end : start)""#) }
        return ("{" + members.joined(separator: ",") + "}", [:])
    }

    /// `?from=N&limit=M`, answering `users` (each keyed by its `name`, `@user<id>:example.org`, with
    /// a `displayname` and no id), `total`, and the next offset as a string at `next_token` (absent
    /// on the last page); `?next_token=` and `?page=` are ignored.
    private func renderNamedItems() -> (body: String, headers: [String: String])? {
        guard let start = integer("from", default: 0), start >= 0,
            let limit = integer("limit", default: configuration.pageSize), limit > 0
        else { return nil }
        let end = min(start + limit, total)
        let users = (start..<max(start, end)).map { position in
            let id = catalog.id(at: position)
            return #"{"name":"@user\#(id):example.org","displayname":"User \#(id)","admin":false,"deactivated":0}"#
        }
        var members = [#""users":[\#(users.joined(separator: ","))]"#, #""total":\#(total)"#]
        if end < total { members.append(#""next_token":"\#(isAdvancing ? end : start)""#) }
        return ("{" + members.joined(separator: ",") + "}", [:])
    }

    /// `?@page_index=N&@page_size=M` from 0, answering `data.collection` beside `data.@links`, whose
    /// `self` and `next` (absent on the last page) are arrays of `{rel, uri}` objects with a relative URI.
    private func renderLinkArrays() -> (body: String, headers: [String: String])? {
        guard let index = integer("@page_index", default: 0), index >= 0,
            let size = integer("@page_size", default: configuration.pageSize), size > 0
        else { return nil }
        func link(_ rel: String, _ index: Int) -> String {
            #"[{"rel":"\#(rel)","uri":"\#(route.rawValue)?@page_index=\#(index)&@page_size=\#(size)"}]"#
        }
        var links = [#""self":\#(link("self", index))"#]
        if (index + 1) * size < total { links.append(#""next":\#(link("next", isAdvancing ? index + 1 : index))"#) }
        let items = catalog.json(positions: index * size..<(index + 1) * size)
        return (#"{"data":{"collection":\#(items),"@links":{\#(links.joined(separator: ","))}}}"#, [:])
    }

    /// `?page=N&count=M` from 1, answering `start`, `total_size`, `http_etag` and the items under
    /// `entries`; a page past the last has no `entries` member at all.
    private func renderMissingArrayEnd() -> (body: String, headers: [String: String])? {
        guard let page = integer("page", default: 1), page >= 1,
            let count = integer("count", default: configuration.pageSize), count > 0
        else { return nil }
        let start = (page - 1) * count
        var members = [#""start":\#(start)"#, #""total_size":\#(total)"#, #""http_etag":"\"\#(catalog.version)\"""#]
        if start < total { members.append(#""entries":\#(catalog.json(positions: start..<start + count))"#) }
        return ("{" + members.joined(separator: ",") + "}", [:])
    }
}

extension FixtureServer.Route {
    /// Whether the route names its paging in words no vocabulary holds (see `FixturePage.renderStructural()`).
    var isStructural: Bool {
        switch self {
        case .renamedContinuation, .namedItems, .linkArrays, .missingArrayEnd: true
        default: false
        }
    }
}
