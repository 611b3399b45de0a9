import Foundation
import Slippers

extension PaginationStyle.GraphQLConnection {
    /// A connection found in a GraphQL response: where it is and how it lists its items.
    public struct Found: Sendable, Hashable {
        /// The key path of the connection under `data`, such as `repository.issues`.
        public var connectionPath: String
        /// Whether it lists `edges` or `nodes`.
        public var items: Items
        /// The number of items in it.
        public var itemCount: Int
        /// Whether it has `pageInfo.hasNextPage` and `pageInfo.endCursor` to page with.
        public var hasPageInfo: Bool
    }

    /// The Relay connections in a GraphQL response's `data`: objects with `edges` or `nodes`
    /// and a `pageInfo`, outermost first, at most eight levels down.
    ///
    /// For example, `{"data": {"viewer": {"repositories": {"nodes": […], "pageInfo": {…}}}}}`
    /// has one, at `viewer.repositories`.
    public static func find(in body: Data) -> [Found] {
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

extension HTTPPageSource {
    /// Sends a GraphQL list's first request and finds the Relay connections in its response,
    /// outermost first. The source's connection path is not used; nothing is stored.
    ///
    /// - throws: ``NetworkError`` when the request fails, the response is not JSON, or it
    ///   carries GraphQL `errors`.
    public func graphQLConnections() async throws -> [PaginationStyle.GraphQLConnection.Found] {
        try await findingConnection().found
    }

    /// Sends a GraphQL list's first request, finds its connection (the outermost one), and
    /// returns a source whose style pages that connection, with the first page read from the
    /// same response: a list whose connection path is not known costs no extra request.
    ///
    /// - returns: `nil` when the response holds no connection.
    /// - throws: ``NetworkError`` as ``graphQLConnections()``, and when the first page cannot be read.
    public func detectingConnection() async throws -> (source: HTTPPageSource, firstPage: Page<RawItem>)? {
        let (found, response) = try await findingConnection()
        guard let chosen = found.first, case .graphQL(var connection) = style.kind else { return nil }
        connection.connectionPath = chosen.connectionPath
        connection.items = chosen.items
        var source = self
        source.style.kind = .graphQL(connection)
        source.style.itemsKeyPath = connection.itemsKeyPath
        source.style.totalKeyPath = connection.totalKeyPath
        let page = try source.page(from: response, token: nil, requestURL: url, validators: PageValidators())
        return (source, page)
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
            if let error = graphQLError(in: scanner, requestURL: url) { throw error }
            return (PaginationStyle.GraphQLConnection.find(in: response.body), response)
        }
    }
}
