import Foundation

/// The routes that answer as well-known APIs do: Stripe, Slack, JSON:API, OData, Spring Data.
extension FixturePage {
    /// Stripe: `?starting_after=ID&limit=M`, answering `object`, `url`, `has_more` and `data`.
    func renderStripe() -> (body: String, link: String?)? {
        guard let limit = integer("limit", default: configuration.pageSize), limit > 0 else { return nil }
        var start = 0
        if let after = query["starting_after"], isAdvancing {
            guard let id = Int(after), let position = catalog.position(of: id) else { return nil }
            start = position + 1
        }
        let end = min(start + limit, total)
        let items = catalog.json(positions: start..<max(start, end))
        let hasMore = end < total || !isAdvancing
        return (#"{"object":"list","url":"\#(route.rawValue)","has_more":\#(hasMore),"data":\#(items)}"#, nil)
    }

    /// Slack: `?cursor=C&limit=M`, answering `ok`, `members` and `response_metadata.next_cursor` (`""` at the end).
    func renderSlack() -> (body: String, link: String?)? {
        guard let limit = integer("limit", default: configuration.pageSize), limit > 0 else { return nil }
        var start = 0
        if let cursor = query["cursor"], !cursor.isEmpty {
            guard let afterID = Self.decodeCursor(cursor), let position = catalog.position(of: afterID) else {
                return nil
            }
            start = position + 1
        }
        let end = min(start + limit, total)
        let items = catalog.json(positions: start..<max(start, end))
        var next = end < total && end > start ? Self.encodeCursor(afterID: catalog.id(at: end - 1)) : ""
        if !isAdvancing { next = query["cursor"] ?? Self.encodeCursor(afterID: catalog.id(at: 0)) }
        return (#"{"ok":true,"members":\#(items),"response_metadata":{"next_cursor":"\#(next)"}}"#, nil)
    }

    /// JSON:API: `?page[number]=N&page[size]=M`, answering `data`, `links` (`next` `null` at the end) and `meta.total`.
    func renderJSONAPI() -> (body: String, link: String?)? {
        guard let page = integer("page[number]", default: 1), page >= 1,
            let size = integer("page[size]", default: configuration.pageSize), size > 0
        else { return nil }
        let start = (page - 1) * size
        let items = catalog.json(positions: start..<start + size)
        let lastPage = max(1, (total + size - 1) / size)
        func link(_ number: Int) -> String {
            "\"http://127.0.0.1:\(port)\(route.rawValue)?page%5Bnumber%5D=\(number)&page%5Bsize%5D=\(size)\""
        }
        var next = page < lastPage ? link(page + 1) : "null"
        if !isAdvancing { next = link(page) }
        let links = #""self":\#(link(page)),"first":\#(link(1)),"last":\#(link(lastPage)),"next":\#(next)"#
        return (#"{"data":\#(items),"links":{\#(links)},"meta":{"total":\#(total)}}"#, nil)
    }

    /// OData: `?$skip=N&$top=M`, answering `@odata.context`, `value` and `@odata.nextLink` (absent at the end);
    /// `@odata.count` with `$count=true`.
    func renderOData() -> (body: String, link: String?)? {
        guard let skip = integer("$skip", default: 0), skip >= 0,
            let top = integer("$top", default: configuration.pageSize), top > 0
        else { return nil }
        let items = catalog.json(positions: skip..<skip + top)
        var members = [#""@odata.context":"http://127.0.0.1:\#(port)/$metadata#Items""#]
        if query["$count"] == "true" { members.append(#""@odata.count":\#(total)"#) }
        members.append(#""value":\#(items)"#)
        let nextSkip = isAdvancing ? skip + top : skip
        if nextSkip < total {
            members.append(
                #""@odata.nextLink":"http://127.0.0.1:\#(port)\#(route.rawValue)?$skip=\#(nextSkip)&$top=\#(top)""#)
        }
        return ("{" + members.joined(separator: ",") + "}", nil)
    }

    /// Spring Data: `?page=N&size=M` from page 0, answering `content`, `pageable`, `totalPages`,
    /// `totalElements`, `last`, `first`, `number`, `size`, `numberOfElements` and `empty`.
    func renderSpring() -> (body: String, link: String?)? {
        guard let page = integer("page", default: 0), page >= 0,
            let size = integer("size", default: configuration.pageSize), size > 0
        else { return nil }
        let start = page * size
        let count = max(0, min(start + size, total) - start)
        let items = catalog.json(positions: start..<start + size)
        let totalPages = (total + size - 1) / size
        let isLast = page >= totalPages - 1
        let pageable =
            #"{"pageNumber":\#(page),"pageSize":\#(size),"offset":\#(start),"#
            + #""sort":{"empty":true,"sorted":false,"unsorted":true},"paged":true,"unpaged":false}"#
        let fields = [
            #""content":\#(items)"#, #""pageable":\#(pageable)"#, #""last":\#(isLast)"#,
            #""totalPages":\#(totalPages)"#, #""totalElements":\#(total)"#,
            #""first":\#(page == 0)"#, #""size":\#(size)"#, #""number":\#(page)"#,
            #""numberOfElements":\#(count)"#, #""empty":\#(count == 0)"#,
        ]
        return ("{" + fields.joined(separator: ",") + "}", nil)
    }
}
