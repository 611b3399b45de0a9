import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The lists asked for by POST: a GraphQL connection, a cursor in a JSON body.
extension HTTPPageSource {
    /// The request for the page at `token`: a GET of ``requestURL(for:)``, or for a posted
    /// style (``PaginationStyle/isPosted``) a POST of the list's URL with a JSON body.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidToken(_:)`` when the token does
    ///   not fit the style, ``NetworkError/Kind/invalidRequestBody(reason:)`` when the style's
    ///   body or variables are not a JSON object.
    public func urlRequest(for token: PageToken?) throws -> URLRequest {
        var request = URLRequest(url: try requestURL(for: token))
        request.setValue(style.accept ?? "application/json", forHTTPHeaderField: "Accept")
        if case .range(let unit) = style.kind {
            let offset = token?.intValue ?? 0
            let last = style.pageSize.map { String(offset + $0 - 1) } ?? ""
            request.setValue("\(unit)=\(offset)-\(last)", forHTTPHeaderField: "Range")
        }
        if let body = try requestBody(for: token) {
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// The JSON body of the request for the page at `token`; `nil` for the styles asked for by GET.
    func requestBody(for token: PageToken?) throws -> Data? {
        switch style.kind {
        case .graphQL(let connection):
            var variables = try JSONBody(connection.variables, url: url)
            if let pageSize = style.pageSize { variables.set(pageSize, at: [connection.firstVariable]) }
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
            return try body.data(url: url)
        case .bodyCursor(let cursor):
            var body = try JSONBody(cursor.body, url: url)
            if let path = cursor.pageSizePath, let pageSize = style.pageSize {
                body.set(pageSize, at: PaginationStyle.components(path))
            }
            switch cursor.paging {
            case .offset(let path):
                body.set(token?.intValue ?? 0, at: PaginationStyle.components(path))
                return try body.data(url: url)
            case .page(let path, let firstPage):
                body.set(token?.intValue ?? firstPage, at: PaginationStyle.components(path))
                return try body.data(url: url)
            case .cursor, nil:
                break
            }
            if let token {
                guard
                    let value = try? JSONSerialization.jsonObject(
                        with: Data(token.rawValue.utf8), options: .fragmentsAllowed)
                else { throw NetworkError(.invalidToken(token.rawValue), url: url) }
                body.set(value, at: PaginationStyle.components(cursor.cursorPath))
            }
            return try body.data(url: url)
        default:
            return nil
        }
    }

    /// The GraphQL `errors` of a response, as an error naming the first one's message and path;
    /// `nil` when the response has none. A response with errors is never read as a page, even
    /// with `data` beside them.
    func graphQLError(in scanner: JSONScanner, requestURL: URL) -> NetworkError? {
        guard case .graphQL = style.kind, let errors = scanner.value(at: ["errors"]), errors.kind == .array,
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

    /// The token of the page after a posted style's page; `nil` at the end.
    func postedNextToken(
        scanner: JSONScanner, token: PageToken?, requestURL: URL, items: [RawItem]
    ) throws -> PageToken? {
        let next: String?
        switch style.kind {
        case .graphQL(let connection) where connection.paging != .cursor:
            return numberedNextToken(connection.paging, scanner: scanner, token: token, items: items)
        case .graphQL(let connection):
            let pageInfo = connection.connectionKeys + ["pageInfo"]
            guard scanner.bool(at: pageInfo + ["hasNextPage"]) != false else { return nil }
            next = scanner.string(at: pageInfo + ["endCursor"])
        case .bodyCursor(let cursor) where cursor.isNumbered:
            return numberedNextToken(cursor.paging ?? .cursor, scanner: scanner, token: token, items: items)
        case .bodyCursor(let cursor):
            let value: JSONScanner.Value?
            let document: JSONScanner
            switch cursor.nextCursor {
            case .response(let keyPath):
                document = scanner
                value = scanner.value(at: PaginationStyle.components(keyPath))
            case .lastItem(let keyPath):
                guard let last = items.last, let itemScanner = try? JSONScanner(last.json) else { return nil }
                document = itemScanner
                value = itemScanner.value(at: PaginationStyle.components(keyPath))
            }
            guard let value, value.kind != .null, document.string(value) != "" else { return nil }
            next = String(decoding: document.data(of: value), as: UTF8.self)
        default:
            return nil
        }
        guard let next, !next.isEmpty else { return nil }
        guard next != token?.rawValue else { throw NetworkError(.notAdvancing(token: next), url: requestURL) }
        return PageToken(next)
    }

    /// The next offset or page number of a GraphQL list paged by variables: none after an empty
    /// or short page, or once the style's total is reached.
    private func numberedNextToken(
        _ paging: PaginationStyle.GraphQLConnection.Paging, scanner: JSONScanner, token: PageToken?, items: [RawItem]
    ) -> PageToken? {
        guard !items.isEmpty else { return nil }
        let total = style.totalKeyPath.flatMap { scanner.int(at: PaginationStyle.components($0)) }
        // A server may serve fewer items than asked for: a total says whether the list goes on, else a short page ends it.
        if total == nil, let size = style.pageSize, items.count < size { return nil }
        switch paging {
        case .cursor:
            return nil
        case .offset:
            let next = (token?.intValue ?? 0) + items.count
            if let total, next >= total { return nil }
            return PageToken(next)
        case .page(_, let firstPage):
            let number = token?.intValue ?? firstPage
            if let total {
                // A short page after full ones is the last when the pages before it and its items reach the total.
                let size = style.pageSize ?? items.count
                let isShort = number > firstPage && items.count < size
                let seen = isShort ? (number - firstPage) * size + items.count : (number - firstPage + 1) * items.count
                if seen >= total { return nil }
            }
            return PageToken(number + 1)
        }
    }

    /// What tells a posted list's request apart from another on the same URL: the query, its
    /// variables and the connection, or the body and where its cursor goes. Never a header.
    var postedFingerprint: String? {
        var hash = FNV1a()
        switch style.kind {
        case .graphQL(let connection):
            var variables = (try? JSONBody(connection.variables, url: url)) ?? JSONBody()
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
        case .bodyCursor(let cursor):
            var body = (try? JSONBody(cursor.body, url: url)) ?? JSONBody()
            body.remove(PaginationStyle.components(cursor.cursorPath))
            if let path = cursor.pageSizePath { body.remove(PaginationStyle.components(path)) }
            for part in [body.canonicalText, cursor.cursorPath] {
                hash.combine(part.utf8)
                hash.combine(0)
            }
            return "post:\(hash.hex.prefix(12))"
        default:
            return nil
        }
    }
}

/// A JSON object being built for a request body.
struct JSONBody {
    private(set) var object: [String: Any] = [:]

    init() {}

    /// Reads the text of a JSON object.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidRequestBody(reason:)``.
    init(_ text: String, url: URL) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: .fragmentsAllowed)
        } catch {
            throw NetworkError(.invalidRequestBody(reason: "not JSON: \(trimmed.shortenedForErrors)"), url: url)
        }
        guard let object = value as? [String: Any] else {
            throw NetworkError(
                .invalidRequestBody(reason: "not a JSON object: \(trimmed.shortenedForErrors)"), url: url)
        }
        self.object = object
    }

    /// Sets the value at a key path, making the objects on the way; an empty path changes nothing.
    mutating func set(_ value: Any, at path: [String]) {
        guard let key = path.first else { return }
        object = Self.setting(value, at: key, rest: path.dropFirst(), in: object)
    }

    /// Removes the value at a key path, if there is one.
    mutating func remove(_ path: [String]) {
        guard let key = path.first else { return }
        object = Self.removing(key, rest: path.dropFirst(), in: object)
    }

    private static func setting(_ value: Any, at key: String, rest: ArraySlice<String>, in object: [String: Any])
        -> [String: Any]
    {
        var object = object
        if let next = rest.first {
            object[key] = setting(value, at: next, rest: rest.dropFirst(), in: object[key] as? [String: Any] ?? [:])
        } else {
            object[key] = value
        }
        return object
    }

    private static func removing(_ key: String, rest: ArraySlice<String>, in object: [String: Any]) -> [String: Any] {
        var object = object
        if let next = rest.first {
            if let inner = object[key] as? [String: Any] {
                object[key] = removing(next, rest: rest.dropFirst(), in: inner)
            }
        } else {
            object[key] = nil
        }
        return object
    }

    /// The object's JSON, keys sorted.
    func data(url: URL) throws -> Data {
        do {
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw NetworkError(.invalidRequestBody(reason: "cannot be written as JSON"), url: url)
        }
    }

    /// The object's JSON text, keys sorted: the same text for the same object.
    var canonicalText: String {
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

extension HTTPPageSource {
    /// The items of a page: the array at the style's items key path, or a GraphQL connection's
    /// `edges[].node` or `nodes`.
    func readItems(_ scanner: JSONScanner) throws -> [RawItem] {
        guard case .graphQL(let connection) = style.kind else {
            return try scanner.rawItems(at: PaginationStyle.components(style.itemsKeyPath), idField: style.idField)
        }
        let keys = connection.connectionKeys
        // A list paged by variables is a plain array, unless it is a connection paged by offset.
        if connection.paging != .cursor, scanner.value(at: keys)?.kind == .array {
            return try scanner.rawItems(at: keys, idField: style.idField)
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
            return try scanner.rawItems(at: keys + [key], idField: style.idField)
        }
        return try scanner.rawItems(
            at: keys + [items.rawValue], member: items == .edges ? "node" : nil, idField: style.idField)
    }
}

extension HTTPPageSource {
    /// The source and first page of a list paged by a page number or an offset in a JSON body,
    /// with what its first response shows read as a GET list's is (``PaginationStyle/explain(url:body:headers:)``):
    /// the items, unless the style's path holds an array; the total, unless the style names one;
    /// the id, unless the items carry the style's. `nil` for another style.
    public func detectingNumberedBody() async throws -> (
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
