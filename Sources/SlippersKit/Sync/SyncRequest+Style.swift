import Foundation
import Slippers
import SlippersNetworking

extension StyleOverrides {
    /// The overrides a queued request's style gives, as `slippers sync` takes them from its options:
    /// for a server app that plans a ``SyncRequest`` with ``SyncPlan``.
    ///
    /// For example, in a fleet worker's sync:
    ///
    /// ```swift
    /// let plan = try await SyncPlan.make(
    ///     storage: job.cache, client: client, url: url, overrides: StyleOverrides(job.request.style),
    ///     itemType: job.request.itemType, refresh: job.request.refresh)
    /// ```
    ///
    /// A style name that is none of `sync --style`'s is left to detection.
    public init(_ style: SyncRequest.Style) {
        let posted = style.postedStyle()
        let isPosted = style.graphQL != nil || style.postBody != nil
        self.init(
            style: posted ?? style.name.flatMap(PaginationStyle.named), itemsPath: isPosted ? nil : style.itemsPath,
            // A posted body's page parameters are paths in the body, which its style holds already.
            idField: style.idField, pageSize: style.pageSize, pageParameter: isPosted ? nil : style.pageParameter,
            pageSizeParameter: isPosted ? nil : style.pageSizeParameter,
            cursorPath: isPosted ? nil : style.cursorPath ?? style.nextCursorPath,
            // `*`: every member of the continuation object is sent back.
            cursorParameter: style.cursorParameter == "*" ? "" : style.cursorParameter, totalPath: style.totalPath)
    }
}

extension SyncRequest.Style {
    /// The style of a list asked for by POST: a GraphQL connection or list (``graphQL``), a
    /// cursor in a JSON body (``postBody`` with ``cursorPath``), or a page number or an offset in
    /// it (at ``pageParameter``, a key path of the body, with ``name`` `offset` for an offset;
    /// else found in the body, as `{"page": 1, "limit": 50}` holds them); `nil` for a list asked
    /// for by GET, or a body that says nothing of how it pages. The list's total is at
    /// ``totalPath`` when it is given, else found in the first response.
    public func postedStyle() -> PaginationStyle? {
        guard var style = composedPostedStyle() else { return nil }
        if let totalPath { style.totalKeyPath = totalPath }
        return style
    }

    private func composedPostedStyle() -> PaginationStyle? {
        if let graphQL, graphQLPaging != .cursor {
            let variables = self.variables ?? "{}"
            let size = graphQLSizeVariable
            let givesSize = Self.jsonObject(variables)?[size] != nil
            return .graphQLOffset(
                query: graphQL, variables: variables, operationName: operationName,
                listPath: connection ?? "", paging: graphQLPaging, sizeVariable: size,
                pageSize: pageSize ?? (givesSize ? nil : Self.defaultGraphQLPageSize), idField: idField ?? "id")
        }
        if let graphQL {
            let variables = self.variables ?? "{}"
            // Connections mostly require `first`: unless the variables give it, pages of the default size are asked for.
            let givesFirst = Self.jsonObject(variables)?["first"] != nil
            return .graphQL(
                query: graphQL, variables: variables, operationName: operationName,
                connectionPath: connection ?? "",
                pageSize: pageSize ?? (givesFirst ? nil : Self.defaultGraphQLPageSize), idField: idField ?? "id")
        }
        if let postBody, cursorPath == nil {
            return numberedBodyStyle(postBody)
        }
        if let postBody, let cursorPath {
            let next: PaginationStyle.BodyCursor.NextCursor =
                nextCursorFromItem.map { .lastItem(keyPath: $0) } ?? .response(keyPath: nextCursorPath ?? "next_cursor")
            return .bodyCursor(
                body: postBody, cursorPath: cursorPath, nextCursor: next, pageSizePath: pageSizePath,
                pageSize: pageSize, itemsKeyPath: itemsPath ?? "results", idField: idField ?? "id")
        }
        return nil
    }

    /// The style of a body paged by a page number or an offset: named (``pageParameter``), else
    /// found in the body (``PaginationStyle/BodyCursor/numbered(in:)``).
    private func numberedBodyStyle(_ postBody: String) -> PaginationStyle? {
        var found = PaginationStyle.BodyCursor.numbered(in: postBody)
        if let pageParameter {
            let given = Self.jsonObject(postBody).flatMap { Self.value(at: pageParameter, in: $0) as? Int }
            let paging: PaginationStyle.GraphQLConnection.Paging =
                name == "offset"
                ? .offset(variable: pageParameter) : .page(variable: pageParameter, firstPage: given ?? 1)
            found = (
                PaginationStyle.BodyCursor(
                    body: postBody, cursorPath: pageParameter, nextCursor: .response(keyPath: ""),
                    pageSizePath: pageSizeParameter ?? found?.0.pageSizePath, paging: paging),
                found?.pageSize
            )
        }
        guard let (cursor, bodySize) = found else { return nil }
        var style = PaginationStyle.bodyCursor(
            body: cursor.body, cursorPath: cursor.cursorPath, nextCursor: cursor.nextCursor,
            pageSizePath: cursor.pageSizePath, pageSize: pageSize ?? bodySize, itemsKeyPath: itemsPath ?? "results",
            idField: idField ?? "id", totalKeyPath: totalPath)
        style.kind = .bodyCursor(cursor)
        return style
    }

    /// The value at a dotted key path of a JSON object.
    private static func value(at path: String, in object: [String: Any]) -> Any? {
        var current: Any? = object
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    /// How a GraphQL list is paged: an offset or page number in the variable ``offsetVariable``
    /// or ``pageVariable`` names, else as the query's declared variables say (`$offset`, `$skip`
    /// or `$page` with `$limit`, `$first` or `$pageSize`: see
    /// ``PaginationStyle/GraphQLConnection/paging(declaredIn:)``), else a Relay cursor.
    var graphQLPaging: PaginationStyle.GraphQLConnection.Paging {
        if let offsetVariable { return .offset(variable: offsetVariable) }
        if let pageVariable { return .page(variable: pageVariable, firstPage: 1) }
        return graphQL.flatMap { PaginationStyle.GraphQLConnection.paging(declaredIn: $0)?.paging } ?? .cursor
    }

    /// The variable of the page size of a GraphQL list paged by an offset or a page number:
    /// ``sizeVariable``, else the one the query declares, else `limit`.
    var graphQLSizeVariable: String {
        sizeVariable ?? graphQL.flatMap { PaginationStyle.GraphQLConnection.paging(declaredIn: $0)?.sizeVariable }
            ?? "limit"
    }

    /// The page size asked for as `first` (or the size variable) when neither the style nor the variables give one.
    static var defaultGraphQLPageSize: Int { 50 }

    private static func jsonObject(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
