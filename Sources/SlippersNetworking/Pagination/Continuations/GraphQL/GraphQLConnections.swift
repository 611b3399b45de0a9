import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A GraphQL connection or list, asked for by POST with `first` and `after` (the Relay cursor
/// connection spec), or with an offset or page variable: ``PaginationStyle/Kind/graphQL(_:)``.
/// The token is the previous page's end cursor, or the next offset or page number.
struct GraphQLConnections: ListContinuation {
    /// The query, its variables, and where the connection is.
    var connection: PaginationStyle.GraphQLConnection

    static let name = "graphql"
    static var template: PaginationStyle? { nil }

    var description: String { "GraphQL connection (at data.\(connection.connectionPath), by POST)" }
    var isPosted: Bool { true }
    var sendsPageSize: Bool { false }
    var pagesByCursor: Bool { connection.paging == .cursor }

    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? {
        source.learntCursorToken(forPageAt: index)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? {
        source.learntCursorPageCount(forTotal: total)
    }

    /// The list's URL: the token travels in the POST body.
    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL { source.url }

    func prepare(_ request: inout URLRequest, for token: PageToken?, in source: HTTPPageSource) throws {
        var variables = try JSONBody(connection.variables, url: source.url)
        if let pageSize = source.style.pageSize { variables.set(pageSize, at: [connection.firstVariable]) }
        switch connection.paging {
        case .cursor:
            variables.set(token.map { $0.rawValue as Any } ?? NSNull(), at: [connection.afterVariable])
        case .offset(let variable):
            variables.set(token?.intValue ?? 0, at: [variable])
        case .page(let variable, let firstPage):
            variables.set(token?.intValue ?? firstPage, at: [variable])
        }
        var body = JSONBody()
        body.set(connection.query, at: ["query"])
        body.set(variables.object, at: ["variables"])
        if let operationName = connection.operationName { body.set(operationName, at: ["operationName"]) }
        request.posting(try body.data(url: source.url))
    }

    func usualEndSignal(_ style: PaginationStyle) -> PaginationStyle.EndSignal? {
        .hasMore(keyPath: JSONKeyPath(keys: connection.connectionKeys + ["pageInfo", "hasNextPage"]).text)
    }

    /// The connection's last key: every GraphQL list of an API has the same URL.
    var itemTypeName: String? { PaginationStyle.components(connection.connectionPath).last }

    /// The connection or list found in the first response when its path or total is not given, or
    /// when `slippers detect` asks (the other connections then named in the reasons).
    func detect(posted source: HTTPPageSource, pageTwo: HTTPPageSource.PageTwoCheck) async throws
        -> HTTPPageSource.DetectedList
    {
        let finds =
            pageTwo == .every || connection.connectionPath.isEmpty
            || (connection.paging != .cursor && source.style.totalKeyPath == nil)
        guard finds else { return source.given(reason: "given by the caller: asked for by POST") }
        return try await source.detectingGraphQL(connection, pageTwo: pageTwo)
    }

    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken? {
        guard connection.paging == .cursor else {
            return source.numberedNextToken(connection.paging, page: page)
        }
        let pageInfo = connection.connectionKeys + ["pageInfo"]
        guard page.scanner.bool(at: pageInfo + ["hasNextPage"]) != false,
            let next = page.scanner.string(at: pageInfo + ["endCursor"]), !next.isEmpty
        else { return nil }
        guard next != page.token?.rawValue else {
            throw NetworkError(.notAdvancing(token: next), url: page.requestURL)
        }
        return PageToken(next)
    }

    func endSigns(_ style: PaginationStyle) -> [String] {
        let pageInfo = JSONKeyPath(keys: connection.connectionKeys + ["pageInfo"]).text
        return ["\(pageInfo).hasNextPage false, no \(pageInfo).endCursor"]
    }

    /// The query, its variables but the page's, and the connection.
    func fingerprint(in source: HTTPPageSource) -> String? {
        var hash = FNV1a()
        var variables = (try? JSONBody(connection.variables, url: source.url)) ?? JSONBody()
        variables.remove([connection.firstVariable])
        variables.remove([connection.tokenVariable])
        for part in [
            connection.query, variables.canonicalText, connection.operationName ?? "", connection.connectionPath,
            connection.items.rawValue,
        ] {
            hash.combine(part.utf8)
            hash.combine(0)
        }
        return "graphql:\(connection.connectionPath):\(hash.hex.prefix(12))"
    }

    /// The GraphQL `errors` of a response, as an error naming the first one's message and path. A
    /// response with errors is never read as a page, even with `data` beside them.
    func failure(in scanner: JSONScanner, requestURL: URL) -> NetworkError? {
        guard let errors = scanner.value(at: ["errors"]), errors.kind == .array,
            let first = scanner.elements(of: errors).first
        else { return nil }
        let message = scanner.member("message", of: first).flatMap(scanner.string) ?? "an error without a message"
        let path = scanner.member("path", of: first).map { path in
            scanner.elements(of: path).map { scanner.string($0) ?? scanner.int($0).map(String.init) ?? "?" }
                .joined(separator: ".")
        }
        let count = scanner.elements(of: errors).count
        return NetworkError(
            .graphQL(message: message, path: path?.isEmpty == false ? path : nil, errorCount: count),
            url: requestURL, method: "POST")
    }

    /// A connection's `edges[].node` or `nodes`, or the array of a list paged by variables.
    func readItems(_ scanner: JSONScanner, in style: PaginationStyle) throws -> [RawItem] {
        let idField = style.idField
        let keys = connection.connectionKeys
        // A list paged by variables is a plain array, unless it is a connection paged by offset.
        if connection.paging != .cursor, scanner.value(at: keys)?.kind == .array {
            return try scanner.rawItems(at: keys, idField: idField)
        }
        guard let value = scanner.value(at: keys), value.kind == .object else {
            throw JSONScanner.ScanError(
                path: keys.joined(separator: "."),
                reason: "no connection here (missing or null); check the connection path and the query")
        }
        // A connection lists `edges` or `nodes`, whichever the query asked for.
        var items = connection.items
        if scanner.member(items.rawValue, of: value) == nil {
            items = items == .edges ? .nodes : .edges
            if scanner.member(items.rawValue, of: value) == nil { items = connection.items }
        }
        // A list paged by variables names its array as it likes (`results`, `entries`): its only array of objects.
        if connection.paging != .cursor, scanner.member(items.rawValue, of: value) == nil,
            let key = scanner.keys(of: value).first(where: { key in
                guard let member = scanner.member(key, of: value), member.kind == .array else { return false }
                return scanner.elements(of: member).first?.kind == .object
            })
        {
            return try scanner.rawItems(at: keys + [key], idField: idField)
        }
        return try scanner.rawItems(
            at: keys + [items.rawValue], member: items == .edges ? "node" : nil, idField: idField)
    }

    /// No: the connection's own items are read, and an array elsewhere in the body is no advice.
    var advisesItemsPath: Bool { false }

    func options(_ style: PaginationStyle) -> [(name: String, value: String)]? { nil }
}
