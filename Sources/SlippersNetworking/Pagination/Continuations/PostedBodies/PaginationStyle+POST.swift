import Foundation

extension PaginationStyle {
    /// A GraphQL connection paged by the Relay cursor connection spec: the query is sent
    /// by POST as `{query, variables, operationName}`, with the page size in ``firstVariable``
    /// and the previous page's `pageInfo.endCursor` in ``afterVariable``.
    ///
    /// Items are the `node` of each of the connection's `edges`, or its `nodes`; the list
    /// ends when `pageInfo.hasNextPage` is `false`, at an empty page, or when there is no end
    /// cursor. The connection's `totalCount`, when the query asks for it, is the list's total.
    ///
    /// For example, the issues of a GitHub repository:
    ///
    /// ```swift
    /// let issues = PaginationStyle.graphQL(
    ///     query: """
    ///         query($owner: String!, $name: String!, $first: Int!, $after: String) {
    ///           repository(owner: $owner, name: $name) {
    ///             issues(first: $first, after: $after) {
    ///               nodes { id title }
    ///               pageInfo { hasNextPage endCursor }
    ///             }
    ///           }
    ///         }
    ///         """,
    ///     variables: #"{"owner": "apple", "name": "swift"}"#,
    ///     connectionPath: "repository.issues", pageSize: 50)
    /// ```
    public struct GraphQLConnection: Codable, Sendable, Hashable {
        /// The query (or a document of several operations, with ``operationName``).
        var query: String
        /// The variables, as the text of a JSON object (`{}` when there are none); the page
        /// size and the cursor are added to them. Give credentials in headers, never here:
        /// the style, variables included, is stored with the cache.
        var variables: String
        /// The operation to run when the query holds several; `nil` to send none.
        public var operationName: String?
        /// The key path of the connection under `data`, such as `repository.issues` or `search`.
        public var connectionPath: String
        /// Whether items are the connection's `edges[].node` or its `nodes`.
        public var items: Items
        /// The variable that carries the page size.
        public var firstVariable: String
        /// The variable that carries the cursor of the page before.
        public var afterVariable: String
        /// How pages are asked for: a Relay cursor (``Paging/cursor``), or an offset or page
        /// number in a variable of the query's, for lists that are not Relay connections.
        public var paging: Paging

        /// How a GraphQL list is paged.
        public enum Paging: Codable, Sendable, Hashable {
            /// The Relay cursor connection spec: ``GraphQLConnection/firstVariable`` and
            /// ``GraphQLConnection/afterVariable``, the end in `pageInfo`.
            case cursor
            /// An offset in this variable and the page size in ``GraphQLConnection/firstVariable``
            /// (Hasura's and PostGraphile's `offset` and `limit`); the token is the offset. The
            /// items are the list at ``GraphQLConnection/connectionPath`` (or its `nodes` or
            /// `edges`), the end a short page or the style's total.
            case offset(variable: String)
            /// A page number in this variable, from `firstPage`, and the page size in
            /// ``GraphQLConnection/firstVariable``; the token is the page number.
            case page(variable: String, firstPage: Int)
        }

        /// Where a connection lists its items.
        public enum Items: String, Codable, Sendable, Hashable {
            /// `edges: [{cursor, node}]`: each item is an edge's `node`.
            case edges
            /// `nodes: […]`: each item is an element.
            case nodes
        }

        /// Creates a connection description.
        public init(
            query: String,
            variables: String = "{}",
            operationName: String? = nil,
            connectionPath: String,
            items: Items = .edges,
            firstVariable: String = "first",
            afterVariable: String = "after",
            paging: Paging = .cursor
        ) {
            self.query = query
            self.variables = variables
            self.operationName = operationName
            self.connectionPath = connectionPath
            self.items = items
            self.firstVariable = firstVariable
            self.afterVariable = afterVariable
            self.paging = paging
        }

        private enum CodingKeys: String, CodingKey {
            case query, variables, operationName, connectionPath, items, firstVariable, afterVariable, paging
        }

        /// Decodes a description; one stored without ``paging`` is a Relay connection.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            query = try container.decode(String.self, forKey: .query)
            variables = try container.decode(String.self, forKey: .variables)
            operationName = try container.decodeIfPresent(String.self, forKey: .operationName)
            connectionPath = try container.decode(String.self, forKey: .connectionPath)
            items = try container.decode(Items.self, forKey: .items)
            firstVariable = try container.decode(String.self, forKey: .firstVariable)
            afterVariable = try container.decode(String.self, forKey: .afterVariable)
            paging = try container.decodeIfPresent(Paging.self, forKey: .paging) ?? .cursor
        }

        /// The variable the token travels in: the cursor's, the offset's or the page number's.
        var tokenVariable: String {
            switch paging {
            case .cursor: afterVariable
            case .offset(let variable), .page(let variable, _): variable
            }
        }

        /// The keys from the body's root to the connection: `data`, then ``connectionPath``'s.
        var connectionKeys: [String] { ["data"] + PaginationStyle.components(connectionPath) }
    }

    /// A list whose cursor travels in a JSON body sent by POST, as Notion's `start_cursor`
    /// and Elasticsearch's `search_after` do.
    ///
    /// The first page is asked for with ``body`` as it is (and the page size at
    /// ``pageSizePath``); each next page with the previous page's cursor set at
    /// ``cursorPath``. The cursor is any JSON value (a string, a number, an array): the
    /// page token is its JSON text. The list ends when there is no next cursor, at an empty
    /// page, or when the style's ``EndSignal`` (`has_more: false`) says so.
    ///
    /// For example:
    ///
    /// ```swift
    /// // Notion: {"results": […], "next_cursor": "…", "has_more": true}
    /// let notion = PaginationStyle.bodyCursor(
    ///     body: #"{"filter": {"property": "Done", "checkbox": {"equals": false}}}"#,
    ///     cursorPath: "start_cursor", nextCursor: .response(keyPath: "next_cursor"),
    ///     pageSizePath: "page_size", pageSize: 100, itemsKeyPath: "results",
    ///     endSignal: .hasMore(keyPath: "has_more"))
    /// // Elasticsearch: the next cursor is the last hit's `sort`
    /// let search = PaginationStyle.bodyCursor(
    ///     body: #"{"query": {"match_all": {}}, "sort": [{"id": "asc"}]}"#,
    ///     cursorPath: "search_after", nextCursor: .lastItem(keyPath: "sort"),
    ///     pageSizePath: "size", pageSize: 100, itemsKeyPath: "hits.hits", idField: "_id")
    /// ```
    public struct BodyCursor: Codable, Sendable, Hashable {
        /// The request body of the first page, as the text of a JSON object.
        public var body: String
        /// The key path in the request body where the cursor goes.
        public var cursorPath: String
        /// Where the next cursor is read.
        public var nextCursor: NextCursor
        /// The key path in the request body where the page size goes; `nil` to send none.
        public var pageSizePath: String?
        /// How the body pages when not by a cursor: a page number or an offset at a key path of
        /// the body (``GraphQLConnection/Paging/page(variable:firstPage:)``,
        /// ``GraphQLConnection/Paging/offset(variable:)``, the variable being the path), advanced
        /// as a query parameter would be; `nil` (or ``GraphQLConnection/Paging/cursor``) for a
        /// cursor at ``cursorPath``.
        public var paging: GraphQLConnection.Paging?

        /// Where a response keeps the cursor of the next page.
        public enum NextCursor: Codable, Sendable, Hashable {
            /// At a key path of the response, such as `next_cursor`.
            case response(keyPath: String)
            /// At a key path of the page's last item, such as Elasticsearch's `sort`.
            case lastItem(keyPath: String)
        }

        /// Creates a body-cursor description.
        public init(
            body: String = "{}", cursorPath: String, nextCursor: NextCursor, pageSizePath: String? = nil,
            paging: GraphQLConnection.Paging? = nil
        ) {
            self.body = body
            self.cursorPath = cursorPath
            self.nextCursor = nextCursor
            self.pageSizePath = pageSizePath
            self.paging = paging
        }

        /// Whether the body pages by a number (a page or an offset) rather than by a cursor.
        var isNumbered: Bool { paging != nil && paging != .cursor }

        /// A body paged by a page number or an offset found in `body` (top level, or one object
        /// down): a member named as pages (`page`, `page_number`…) or offsets (`offset`, `skip`,
        /// `start`, `from`) are usually named, holding an integer, and the page size beside it
        /// (`limit`, `page_size`, `per_page`…); `nil` when none is there.
        ///
        /// - returns: The description, and the page size the body holds.
        public static func numbered(in body: String) -> (BodyCursor, pageSize: Int?)? {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
                return nil
            }
            var scopes: [(prefix: String, object: [String: Any])] = [("", object)]
            for (name, value) in object.sorted(by: { $0.key < $1.key }) {
                if let nested = value as? [String: Any] { scopes.append((name + ".", nested)) }
            }
            for (prefix, scope) in scopes {
                func integer(_ name: String) -> Int? { scope[name] as? Int }
                let size = PaginationStyle.pageSizeParameters.first { integer($0) != nil }
                let paging: GraphQLConnection.Paging
                if let page = PaginationStyle.pageParameters.first(where: { integer($0) != nil }) {
                    paging = .page(variable: prefix + page, firstPage: integer(page) ?? 1)
                } else if let offset = GraphQLConnection.offsetVariables.first(where: { integer($0) != nil }) {
                    paging = .offset(variable: prefix + offset)
                } else {
                    continue
                }
                let path: String
                switch paging {
                case .page(let variable, _), .offset(let variable): path = variable
                case .cursor: continue
                }
                return (
                    BodyCursor(
                        body: body, cursorPath: path, nextCursor: .response(keyPath: ""),
                        pageSizePath: size.map { prefix + $0 }, paging: paging),
                    size.flatMap(integer)
                )
            }
            return nil
        }
    }

    /// A GraphQL connection, paged by `first` and `after` (the Relay cursor connection spec).
    ///
    /// - parameter query: The query; it declares the page size and cursor variables.
    /// - parameter variables: Its other variables, as the text of a JSON object.
    /// - parameter operationName: The operation to run, when the query holds several.
    /// - parameter connectionPath: The key path of the connection under `data`.
    /// - parameter items: Whether items are `edges[].node` (the default) or `nodes`.
    /// - parameter pageSize: The page size sent as `first`; `nil` to leave it to the query.
    /// - parameter idField: The member of each node that holds its id.
    public static func graphQL(
        query: String,
        variables: String = "{}",
        operationName: String? = nil,
        connectionPath: String,
        items: GraphQLConnection.Items = .edges,
        firstVariable: String = "first",
        afterVariable: String = "after",
        pageSize: Int? = nil,
        idField: String = "id"
    ) -> PaginationStyle {
        let connection = GraphQLConnection(
            query: query, variables: variables, operationName: operationName, connectionPath: connectionPath,
            items: items, firstVariable: firstVariable, afterVariable: afterVariable)
        return PaginationStyle(
            kind: .graphQL(connection), itemsKeyPath: connection.itemsKeyPath, idField: idField, pageSize: pageSize,
            totalKeyPath: connection.totalKeyPath)
    }

    /// A GraphQL list paged by an offset (or a page number) and a size in variables of the query,
    /// as Hasura and PostGraphile page lists that are not Relay connections.
    ///
    /// For example, Hasura's, with the total from an aggregate:
    ///
    /// ```swift
    /// let posts = PaginationStyle.graphQLOffset(
    ///     query: """
    ///         query($limit: Int!, $offset: Int!) {
    ///           posts(limit: $limit, offset: $offset, order_by: {id: asc}) { id title }
    ///           posts_aggregate { aggregate { count } }
    ///         }
    ///         """,
    ///     listPath: "posts", pageSize: 100, totalKeyPath: "data.posts_aggregate.aggregate.count")
    /// ```
    ///
    /// - parameter listPath: The key path of the list under `data`.
    /// - parameter paging: ``GraphQLConnection/Paging/offset(variable:)`` (the default, `$offset`)
    ///   or ``GraphQLConnection/Paging/page(variable:firstPage:)``.
    /// - parameter sizeVariable: The variable that carries the page size (`$limit`).
    /// - parameter totalKeyPath: The key path of the list's total from the body's root, checked when a walk ends.
    public static func graphQLOffset(
        query: String,
        variables: String = "{}",
        operationName: String? = nil,
        listPath: String,
        paging: GraphQLConnection.Paging = .offset(variable: "offset"),
        sizeVariable: String = "limit",
        pageSize: Int? = nil,
        totalKeyPath: String? = nil,
        idField: String = "id"
    ) -> PaginationStyle {
        let connection = GraphQLConnection(
            query: query, variables: variables, operationName: operationName, connectionPath: listPath,
            items: .nodes, firstVariable: sizeVariable, paging: paging)
        return PaginationStyle(
            kind: .graphQL(connection), itemsKeyPath: JSONKeyPath(keys: connection.connectionKeys).text,
            idField: idField, pageSize: pageSize, totalKeyPath: totalKeyPath)
    }

    /// A cursor in a JSON body sent by POST (Notion's `start_cursor`, Elasticsearch's `search_after`).
    public static func bodyCursor(
        body: String = "{}",
        cursorPath: String,
        nextCursor: BodyCursor.NextCursor,
        pageSizePath: String? = nil,
        pageSize: Int? = nil,
        itemsKeyPath: String = "results",
        idField: String = "id",
        totalKeyPath: String? = nil,
        endSignal: EndSignal? = nil
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .bodyCursor(
                BodyCursor(body: body, cursorPath: cursorPath, nextCursor: nextCursor, pageSizePath: pageSizePath)),
            itemsKeyPath: itemsKeyPath, idField: idField, pageSize: pageSize, totalKeyPath: totalKeyPath,
            endSignal: endSignal)
    }

    /// Whether pages are asked for by POST with a JSON body (GraphQL, a cursor in the body).
    ///
    /// Such responses are not HTTP-cacheable: requests are never conditional, and what
    /// changed is told by the digest of each page's items.
    public var isPosted: Bool { continuation.isPosted }
}

extension PaginationStyle.GraphQLConnection {
    /// The key path of the items array from the body's root: `data.<connection>.edges` or `.nodes`.
    var itemsKeyPath: String {
        JSONKeyPath(keys: connectionKeys + [items.rawValue]).text
    }

    /// The key path of the connection's `totalCount`.
    var totalKeyPath: String {
        JSONKeyPath(keys: connectionKeys + ["totalCount"]).text
    }
}

extension PaginationStyle {
    /// Whether a stored style posts what this one posts: the same query, variables and
    /// operation (and connection, unless this one's is left to be found), or the same body
    /// and cursor path. The page size and the cursor aside.
    public func postsLike(_ stored: PaginationStyle) -> Bool {
        switch (kind, stored.kind) {
        case (.graphQL(var mine), .graphQL(let theirs)):
            if mine.connectionPath.isEmpty {
                mine.connectionPath = theirs.connectionPath
                mine.items = theirs.items
            }
            return mine == theirs
        case (.bodyCursor(let mine), .bodyCursor(let theirs)):
            return mine == theirs
        default:
            return false
        }
    }
}
