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
    package func urlRequest(for token: PageToken?) throws -> URLRequest {
        var request = URLRequest(url: try requestURL(for: token))
        request.setValue(style.accept ?? "application/json", forHTTPHeaderField: "Accept")
        try style.continuation.prepare(&request, for: token, in: self)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// The next offset or page number of a list paged by variables or a body: none after an empty
    /// or short page, or once the style's total is reached.
    func numberedNextToken(_ paging: PaginationStyle.GraphQLConnection.Paging, page: ContinuedPage) -> PageToken? {
        let (scanner, token, items) = (page.scanner, page.token, page.items)
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
    var postedFingerprint: String? { style.continuation.fingerprint(in: self) }
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
        try style.continuation.readItems(scanner, in: style)
    }
}

extension URLRequest {
    /// The request as a POST of a JSON body.
    mutating func posting(_ body: Data) {
        httpMethod = "POST"
        httpBody = body
        setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
}
