import Foundation

/// One page of the fixture API's POST routes, rendered from the request body.
///
/// `/graphql` answers a Relay connection without parsing GraphQL: what the query text
/// mentions picks the shape. With a `limit` variable it answers a plain list instead, as
/// Hasura does: `data.posts` paged by `offset` (or `page` from 1), the total at
/// `data.posts_aggregate.aggregate.count`. `viewer` puts the connection two levels down, at
/// `data.viewer.repository.issues` (else `data.posts`); `nodes` without `edges` lists
/// nodes; `brokenField` is a validation error (`errors`, no `data`). The variables
/// `first` and `after` page it; a variable `failAt` makes the page that starts at or past
/// that position answer partial `data` with an `errors` entry, as a resolver that fails
/// does. Cursors are `base64("arrayconnection:N")`, as graphene and graphql-relay make them.
///
/// A query with `pagination:` answers `data.items.results` paged by `$offset` and `$limit`, the
/// total at `data.items.totalCount`; a query with `$pageSize` answers `data.articles.edges`
/// paged by `$page` from 1, the total at `data.articles.count`: lists paged by variables whose
/// items are under a key of their own.
///
/// `/search` pages by a cursor in the body. Without `size` it answers as Notion does:
/// `start_cursor` and `page_size` in, `{"object": "list", "results", "next_cursor",
/// "has_more"}` out. With `size` it answers as Elasticsearch does: `search_after` (the
/// last hit's `sort`) in, `{"hits": {"total": {"value"}, "hits": [{"_id", "_source", "sort"}]}}` out.
struct FixturePostPage {
    let route: FixtureServer.PostRoute
    let body: Data
    let configuration: FixtureServer.Configuration
    let catalog: FixtureCatalog

    /// The status and JSON body of the answer.
    func render() -> (status: Int, body: String) {
        guard let request = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            return (400, #"{"errors":[{"message":"the body is not a JSON object"}]}"#)
        }
        switch route {
        case .graphql: return renderGraphQL(request)
        case .search: return request["size"] != nil ? renderElasticsearch(request) : renderNotion(request)
        }
    }

    private func renderGraphQL(_ request: [String: Any]) -> (status: Int, body: String) {
        guard let query = request["query"] as? String else {
            return (400, #"{"errors":[{"message":"Must provide query string."}]}"#)
        }
        if query.contains("brokenField") {
            return (
                200,
                #"{"errors":[{"message":"Cannot query field \"brokenField\" on type \"Post\".","locations":[{"line":1,"column":9}]}]}"#
            )
        }
        let variables = request["variables"] as? [String: Any] ?? [:]
        if query.contains("pagination:") { return renderPaginationInput(variables) }
        if query.contains("$pageSize") { return renderNumberedEdges(variables) }
        if let limit = variables["limit"] as? Int, limit > 0 {
            // A list paged as Hasura pages one: `limit` and `offset` (or `page` from 1), the total in an aggregate.
            let start = (variables["offset"] as? Int) ?? (((variables["page"] as? Int) ?? 1) - 1) * limit
            let items = catalog.json(positions: max(0, start)..<max(0, start + limit))
            return (
                200,
                #"{"data":{"posts":\#(items),"posts_aggregate":{"aggregate":{"count":\#(catalog.count)}}}}"#
            )
        }
        let first = (variables["first"] as? Int) ?? configuration.pageSize
        guard first >= 0 else { return (200, #"{"errors":[{"message":"first must be positive"}],"data":null}"#) }
        var start = 0
        if let after = variables["after"] as? String {
            guard let position = Self.position(ofCursor: after) else {
                return (200, #"{"errors":[{"message":"Invalid cursor","path":["posts"]}],"data":{"posts":null}}"#)
            }
            start = position + 1
        }
        let end = min(catalog.count, start + first)
        let positions = start..<max(start, end)
        let usesNodes = query.contains("nodes") && !query.contains("edges")
        let items =
            usesNodes
            ? catalog.json(positions: positions)
            : "["
                + positions.map {
                    #"{"cursor":"\#(Self.cursor($0))","node":\#(catalog.json(positions: $0..<$0 + 1).dropFirst().dropLast())}"#
                }
                .joined(separator: ",") + "]"
        let endCursor = positions.isEmpty ? "null" : "\"\(Self.cursor(positions.upperBound - 1))\""
        let startCursor = positions.isEmpty ? "null" : "\"\(Self.cursor(positions.lowerBound))\""
        let connection =
            #"{"totalCount":\#(catalog.count),"\#(usesNodes ? "nodes" : "edges")":\#(items),"pageInfo":{"hasNextPage":\#(end < catalog.count),"hasPreviousPage":\#(start > 0),"startCursor":\#(startCursor),"endCursor":\#(endCursor)}}"#
        let nested = query.contains("viewer")
        let data =
            nested
            ? #"{"viewer":{"login":"fixture","repository":{"name":"slippers","issues":\#(connection)}}}"#
            : #"{"posts":\#(connection)}"#
        if let failAt = variables["failAt"] as? Int, start >= failAt {
            let path = nested ? #"["viewer","repository","issues"]"# : #"["posts"]"#
            return (
                200,
                #"{"data":\#(data),"errors":[{"message":"Resolver failed at \#(start)","locations":[{"line":1,"column":3}],"path":\#(path)},{"message":"a second error"}]}"#
            )
        }
        return (200, #"{"data":\#(data)}"#)
    }

    /// `items(pagination: {offset: $offset, limit: $limit}) { totalCount results { … } }`: the items
    /// under `results`, the total beside them, the limit capped at 100. A null offset or limit
    /// fails in the resolver, as arithmetic on a missing number does.
    private func renderPaginationInput(_ variables: [String: Any]) -> (status: Int, body: String) {
        guard let offset = variables["offset"] as? Int, let limit = variables["limit"] as? Int else {
            return (
                200,
                #"{"errors":[{"message":"unsupported operand type(s) for +: 'NoneType' and 'int'","path":["items"]}],"data":{"items":null}}"#
            )
        }
        guard offset >= 0, limit > 0 else {
            return (200, #"{"errors":[{"message":"offset and limit must be positive","path":["items"]}],"data":null}"#)
        }
        let start = min(offset, catalog.count)
        let items = catalog.json(positions: start..<min(catalog.count, start + min(limit, 100)))
        return (200, #"{"data":{"items":{"totalCount":\#(catalog.count),"results":\#(items)}}}"#)
    }

    /// `articles(page: $page, pageSize: $pageSize) { count edges { node { … } } }`: pages from 1,
    /// each item an edge's `node`, the total in `count`; no `pageInfo`.
    private func renderNumberedEdges(_ variables: [String: Any]) -> (status: Int, body: String) {
        let page = (variables["page"] as? Int) ?? 1
        let size = (variables["pageSize"] as? Int) ?? configuration.pageSize
        guard page >= 1, size > 0 else {
            return (
                200, #"{"errors":[{"message":"page and pageSize must be positive","path":["articles"]}],"data":null}"#
            )
        }
        let start = min((page - 1) * size, catalog.count)
        let edges = (start..<min(catalog.count, start + size)).map { position in
            #"{"node":\#(catalog.json(positions: position..<position + 1).dropFirst().dropLast())}"#
        }
        return (
            200,
            #"{"data":{"articles":{"count":\#(catalog.count),"edges":[\#(edges.joined(separator: ","))]}}}"#
        )
    }

    private func renderNotion(_ request: [String: Any]) -> (status: Int, body: String) {
        let size = (request["page_size"] as? Int) ?? configuration.pageSize
        guard size > 0 else { return (400, #"{"object":"error","message":"page_size must be positive"}"#) }
        var start = 0
        if let cursor = request["start_cursor"] {
            guard let text = cursor as? String, text.hasPrefix("c-"), let position = Int(text.dropFirst(2)) else {
                return (400, #"{"object":"error","status":400,"code":"validation_error","message":"bad start_cursor"}"#)
            }
            start = position
        }
        let end = min(catalog.count, start + size)
        let hasMore = end < catalog.count
        let next = hasMore ? "\"c-\(end)\"" : "null"
        return (
            200,
            #"{"object":"list","results":\#(catalog.json(positions: start..<max(start, end))),"next_cursor":\#(next),"has_more":\#(hasMore),"type":"page_or_database"}"#
        )
    }

    private func renderElasticsearch(_ request: [String: Any]) -> (status: Int, body: String) {
        guard let size = request["size"] as? Int, size > 0 else {
            return (400, #"{"error":{"type":"parse_exception","reason":"size must be positive"},"status":400}"#)
        }
        var start = 0
        if let after = request["search_after"] {
            guard let values = after as? [Any], let id = values.first as? Int, let position = catalog.position(of: id)
            else { return (400, #"{"error":{"type":"parse_exception","reason":"bad search_after"},"status":400}"#) }
            start = position + 1
        }
        let end = min(catalog.count, start + size)
        let hits = (start..<max(start, end)).map { position in
            let id = catalog.id(at: position)
            let source = catalog.json(positions: position..<position + 1).dropFirst().dropLast()
            return #"{"_index":"posts","_id":"\#(id)","_score":null,"_source":\#(source),"sort":[\#(id)]}"#
        }
        return (
            200,
            #"{"took":1,"timed_out":false,"hits":{"total":{"value":\#(catalog.count),"relation":"eq"},"max_score":null,"hits":[\#(hits.joined(separator: ","))]}}"#
        )
    }

    /// A Relay cursor for a position, as graphql-relay makes it.
    static func cursor(_ position: Int) -> String {
        Data("arrayconnection:\(position)".utf8).base64EncodedString()
    }

    /// The position a cursor names, or `nil` for a cursor this server did not make.
    static func position(ofCursor cursor: String) -> Int? {
        guard let data = Data(base64Encoded: cursor) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("arrayconnection:"), let position = Int(text.dropFirst(16)), position >= 0 else {
            return nil
        }
        return position
    }
}
