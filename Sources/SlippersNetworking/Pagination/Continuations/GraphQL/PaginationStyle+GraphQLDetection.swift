import Foundation
import Slippers

extension PaginationStyle.GraphQLConnection {
    /// A connection found in a GraphQL response: where it is and how it lists its items.
    public struct Found: Sendable, Hashable {
        /// The key path of the connection under `data`, such as `repository.issues`.
        package var connectionPath: String
        /// Whether it lists `edges` or `nodes`.
        public var items: Items
        /// The number of items in it.
        package var itemCount: Int
        /// Whether it has `pageInfo.hasNextPage` and `pageInfo.endCursor` to page with.
        var hasPageInfo: Bool
    }

    /// The Relay connections in a GraphQL response's `data`: objects with `edges` or `nodes`
    /// and a `pageInfo`, outermost first, at most eight levels down.
    ///
    /// For example, `{"data": {"viewer": {"repositories": {"nodes": […], "pageInfo": {…}}}}}`
    /// has one, at `viewer.repositories`.
    static func find(in body: Data) -> [Found] {
        guard let scanner = try? JSONScanner(body), let data = scanner.value(at: ["data"]) else { return [] }
        var found: [Found] = []
        func visit(_ value: JSONScanner.Value, path: [String]) {
            guard value.kind == .object, path.count <= 8 else { return }
            let pageInfo = scanner.member("pageInfo", of: value)
            for items in [Items.edges, .nodes] {
                guard let array = scanner.member(items.rawValue, of: value), array.kind == .array, let pageInfo,
                    pageInfo.kind == .object
                else { continue }
                let hasPageInfo =
                    scanner.member("hasNextPage", of: pageInfo) != nil
                    && scanner.member("endCursor", of: pageInfo) != nil
                found.append(
                    Found(
                        connectionPath: JSONKeyPath(keys: path).text, items: items,
                        itemCount: scanner.elements(of: array).count, hasPageInfo: hasPageInfo))
                return
            }
            for key in scanner.keys(of: value) {
                guard let member = scanner.member(key, of: value) else { continue }
                visit(member, path: path + [key])
            }
        }
        visit(data, path: [])
        return found
    }
}

extension PaginationStyle.GraphQLConnection {
    /// A list found in a GraphQL response's `data` for a query paged by variables: the array of
    /// objects the query's selection returns, whatever its key.
    public struct FoundList: Sendable, Hashable {
        /// The key path under `data` of the array (`items.results`), or of the object whose
        /// `edges` hold the items as each edge's `node` (`posts`, with ``items`` `.edges`).
        package var connectionPath: String
        /// `.edges` when the items are the `node` of each element of ``connectionPath``'s `edges`,
        /// `.nodes` when ``connectionPath`` is the array of items itself.
        public var items: Items
        /// The number of items in it.
        package var itemCount: Int
        /// The key path from the body's root of the list's total: a `totalCount`, `total` or
        /// `count` (or another of ``PaginationStyle/totalKeys``) beside the array; `nil` when there is none.
        package var totalKeyPath: String?
    }

    /// The variables of a query that give the offset of a page, in order of preference.
    static let offsetVariables = ["offset", "skip", "start", "from"]
    /// The variables of a query that give the number of a page, in order of preference.
    static let pageVariables = ["page", "pageNumber", "page_number", "pageNo", "pageIndex"]
    /// The variables of a query that give the page size, in order of preference.
    static let sizeVariables = [
        "limit", "first", "pageSize", "page_size", "perPage", "per_page", "take", "size", "count",
    ]

    /// The variables a query declares, in the order it declares them: `query($offset: Int,
    /// $limit: Int)` declares `offset` and `limit`. Strings and comments are skipped.
    package static func declaredVariables(in query: String) -> [String] {
        var names: [String] = []
        let characters = Array(query)
        var index = 0
        func isNameCharacter(_ character: Character) -> Bool {
            character.isASCII && (character.isLetter || character.isNumber || character == "_")
        }
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "#":
                while index < characters.count, !characters[index].isNewline { index += 1 }
            case "\"":
                let isBlock = index + 1 < characters.count && characters[index] == "\"" && characters[index + 1] == "\""
                if isBlock {
                    index += 2
                    while index + 2 < characters.count,
                        !(characters[index] == "\"" && characters[index + 1] == "\"" && characters[index + 2] == "\"")
                    {
                        index += 1
                    }
                    index += 3
                } else {
                    while index < characters.count, characters[index] != "\"", !characters[index].isNewline {
                        index += characters[index] == "\\" ? 2 : 1
                    }
                    index += 1
                }
            case "$":
                let start = index
                while index < characters.count, isNameCharacter(characters[index]) { index += 1 }
                let name = String(characters[start..<min(index, characters.count)])
                var next = index
                while next < characters.count, characters[next].isWhitespace { next += 1 }
                if !name.isEmpty, next < characters.count, characters[next] == ":", !names.contains(name) {
                    names.append(name)
                }
            default:
                break
            }
        }
        return names
    }

    /// How a query that is not a Relay connection pages, read from the variables it declares: by
    /// an offset (`$offset`, `$skip`…) or a page number (`$page`…), with a size (`$limit`,
    /// `$first`, `$pageSize`…); `nil` when it declares a Relay cursor (`$after`) or no such pair.
    /// Pages count from 0 when the query declares the page's default so (`$page: Int = 0`), else
    /// from 1 (a sync then asks for page 0 too, see ``HTTPPageSource/detectingConnection()``).
    ///
    /// - returns: The paging and the variable of the page size.
    public static func paging(declaredIn query: String) -> (paging: Paging, sizeVariable: String)? {
        let declared = declaredVariables(in: query)
        guard !declared.contains("after"), let size = sizeVariables.first(where: declared.contains) else {
            return nil
        }
        if let offset = offsetVariables.first(where: declared.contains) {
            return (.offset(variable: offset), size)
        }
        if let page = pageVariables.first(where: declared.contains) {
            let firstPage = declaredDefault(of: page, in: query) == 0 ? 0 : 1
            return (.page(variable: page, firstPage: firstPage), size)
        }
        return nil
    }

    /// The integer a query declares as a variable's default (`$page: Int = 0` → 0); `nil` when it declares none.
    static func declaredDefault(of variable: String, in query: String) -> Int? {
        var rest = query[...]
        while let dollar = rest.range(of: "$" + variable) {
            rest = query[dollar.upperBound...]
            guard let next = rest.first, !(next.isLetter || next.isNumber || next == "_") else { continue }
            let declaration = rest.prefix { !",)$".contains($0) }
            guard declaration.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix(":"),
                let equals = declaration.firstIndex(of: "=")
            else { continue }
            return Int(declaration[declaration.index(after: equals)...].trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return nil
    }

    /// The lists in a GraphQL response's `data`: each array of objects, outermost first, at most
    /// eight levels down, with the total beside it; an array of edges (objects with a `node`
    /// object) lists their nodes. Arrays inside items are not lists of the response.
    ///
    /// For example, `{"data": {"items": {"totalCount": 1234, "results": [{"id": 1}, …]}}}` has
    /// one, at `items.results`, its total at `data.items.totalCount`.
    public static func findLists(in body: Data) -> [FoundList] {
        guard let scanner = try? JSONScanner(body), let data = scanner.value(at: ["data"]), data.kind == .object
        else { return [] }
        var found: [FoundList] = []
        var level: [(value: JSONScanner.Value, path: [String])] = [(data, [])]
        while !level.isEmpty {
            var next: [(value: JSONScanner.Value, path: [String])] = []
            for (object, path) in level where path.count <= 8 {
                let total = PaginationStyle.totalKeys.first { scanner.int(at: ["data"] + path + [$0]) != nil }
                    .map { JSONKeyPath(keys: ["data"] + path + [$0]).text }
                for key in scanner.keys(of: object) {
                    guard let member = scanner.member(key, of: object) else { continue }
                    if member.kind == .object {
                        next.append((member, path + [key]))
                        continue
                    }
                    guard member.kind == .array else { continue }
                    let elements = scanner.elements(of: member)
                    guard let first = elements.first, first.kind == .object else { continue }
                    if key == "edges", scanner.member("node", of: first)?.kind == .object {
                        found.append(
                            FoundList(
                                connectionPath: JSONKeyPath(keys: path).text, items: .edges,
                                itemCount: elements.count, totalKeyPath: total))
                    } else {
                        found.append(
                            FoundList(
                                connectionPath: JSONKeyPath(keys: path + [key]).text, items: .nodes,
                                itemCount: elements.count, totalKeyPath: total))
                    }
                }
            }
            level = next
        }
        return found
    }
}

extension HTTPPageSource {
    /// Sends a GraphQL list's first request, finds its connection (the one the style names, else
    /// the outermost), and returns a source whose style pages that connection, with the first page
    /// read from the same response, and the Relay connections the response holds: a list whose
    /// connection path is not known costs no extra request.
    ///
    /// - returns: `nil` when the response holds no connection, or not the one the style names.
    /// - throws: ``NetworkError`` when the request fails, the response is not JSON or carries
    ///   GraphQL `errors`, or the first page cannot be read.
    ///
    /// A list paged by variables (an offset or a page number) is found as the array of objects
    /// its response holds under `data` (see ``PaginationStyle/GraphQLConnection/findLists(in:)``),
    /// the one under the style's connection path when it has one; its total is the one beside it
    /// (`totalCount`, `total`, `count`) unless the style gives one. A list paged by a page number
    /// from 1 whose query declares no default for it has page 0 asked for too, one request more:
    /// when page 0 brings items the first page did not list, the list counts from 0 and page 0
    /// is its first page.
    func detectingConnection() async throws -> (
        source: HTTPPageSource, firstPage: Page<RawItem>, found: [PaginationStyle.GraphQLConnection.Found]
    )? {
        let (found, response) = try await findingConnection()
        guard case .graphQL(var connection) = style.kind else { return nil }
        var source = self
        if connection.paging == .cursor {
            let given = connection.connectionPath
            guard let chosen = given.isEmpty ? found.first : found.first(where: { $0.connectionPath == given }) else {
                return nil
            }
            connection.connectionPath = chosen.connectionPath
            connection.items = chosen.items
            source.style.totalKeyPath = connection.totalKeyPath
            source.style.itemsKeyPath = connection.itemsKeyPath
        } else {
            let given = connection.connectionPath
            let lists = PaginationStyle.GraphQLConnection.findLists(in: response.body).filter {
                given.isEmpty || $0.connectionPath == given || $0.connectionPath.hasPrefix(given + ".")
            }
            guard let chosen = lists.first else { return nil }
            // A path the caller gave stays the list's: only its total is found.
            if given.isEmpty {
                connection.connectionPath = chosen.connectionPath
                connection.items = chosen.items
                source.style.itemsKeyPath =
                    chosen.items == .edges ? connection.itemsKeyPath : JSONKeyPath(keys: connection.connectionKeys).text
            }
            if source.style.totalKeyPath == nil { source.style.totalKeyPath = chosen.totalKeyPath }
        }
        source.style.kind = .graphQL(connection)
        let page = try source.page(from: response, token: nil, requestURL: url, validators: PageValidators())
        if case .page(let variable, 1) = connection.paging,
            PaginationStyle.GraphQLConnection.declaredDefault(of: variable, in: connection.query) == nil,
            let fromZero = try await source.pagingFromZero(variable: variable, pageOne: page)
        {
            return (fromZero.source, fromZero.firstPage, found)
        }
        return (source, page, found)
    }

    /// The source and first page of a list paged by a page number that the query does not say
    /// where it starts, when the list counts from 0: page 0 asked for brings items that the page
    /// asked for as page 1 did not list. A server that counts from 1 refuses page 0, answers it
    /// empty or as page 1: the list counts from 1, and `nil` is returned.
    private func pagingFromZero(
        variable: String, pageOne: Page<RawItem>
    ) async throws -> (source: HTTPPageSource, firstPage: Page<RawItem>)? {
        guard case .graphQL(var connection) = style.kind, !pageOne.items.isEmpty else { return nil }
        connection.paging = .page(variable: variable, firstPage: 0)
        var source = self
        source.style.kind = .graphQL(connection)
        let zero: Page<RawItem>?
        do {
            zero = try await source.fetch(PageRequest(token: nil)).page
        } catch is NetworkError {
            return nil
        }
        let pageOneKeys = Set(pageOne.items.map(\.key))
        guard let zero, !zero.items.isEmpty, !zero.items.contains(where: { pageOneKeys.contains($0.key) }) else {
            return nil
        }
        return (source, zero)
    }

    private func findingConnection() async throws -> (
        found: [PaginationStyle.GraphQLConnection.Found], response: NetworkResponse
    ) {
        let request = try urlRequest(for: nil)
        let url = self.url
        return try await sendingClient().send(request, home: homeOrigin) { response in
            let scanner: JSONScanner
            do {
                scanner = try JSONScanner(response.body)
            } catch {
                throw NetworkError(decoding: error, body: response.body, url: url)
            }
            if let error = style.continuation.failure(in: scanner, requestURL: url) { throw error }
            return (PaginationStyle.GraphQLConnection.find(in: response.body), response)
        }
    }

    /// A GraphQL list found in its first response: a Relay connection (the one the style names,
    /// else the outermost), or a list paged by variables; the other connections named in the reasons.
    ///
    /// A list whose path is given but that its first response does not show (an empty list holds no
    /// array of objects) is paged as given, unless `slippers detect` asks (`pageTwo` ``PageTwoCheck/every``),
    /// which says so.
    func detectingGraphQL(
        _ connection: PaginationStyle.GraphQLConnection, pageTwo: PageTwoCheck
    ) async throws -> DetectedList {
        let url = self.url
        guard let (source, first, found) = try await detectingConnection() else {
            if !connection.connectionPath.isEmpty, pageTwo != .every {
                return given(reason: "given by the caller: asked for by POST")
            }
            let reason =
                connection.paging == .cursor
                ? "no Relay connection (an object with edges or nodes and pageInfo) in the "
                    + "response; ask for pageInfo { hasNextPage endCursor }, or give the connection's path"
                : "no list (an array of objects) in the response; check the query's selection, "
                    + "or give the list's path"
            throw NetworkError(.decoding(path: "data", reason: reason, bodySnippet: ""), url: url, method: "POST")
        }
        guard case .graphQL(let chosen) = source.style.kind else { return given(reason: "given by the caller") }
        var reasons: [String]
        var confidence = PaginationStyle.Detection.Confidence.high
        if chosen.paging != .cursor {
            reasons = ["a list at \(source.style.itemsKeyPath), paged by variables of the query"]
            if let total = first.total { reasons.append("the total at \(source.style.totalKeyPath ?? ""): \(total)") }
        } else {
            reasons = ["a Relay connection at data.\(chosen.connectionPath): \(chosen.items.rawValue) and pageInfo"]
            if let match = found.first(where: { $0.connectionPath == chosen.connectionPath }), !match.hasPageInfo {
                reasons.append("pageInfo lacks hasNextPage or endCursor: ask for both")
                confidence = .medium
            }
            for other in found where other.connectionPath != chosen.connectionPath {
                reasons.append("another connection at data.\(other.connectionPath) (--connection to page it)")
            }
        }
        let detection = PaginationStyle.Detection(
            style: source.style, confidence: confidence, reasons: reasons, itemCount: first.items.count)
        return DetectedList(source: source, firstPage: first, secondPage: nil, detection: detection, advanced: false)
    }
}
