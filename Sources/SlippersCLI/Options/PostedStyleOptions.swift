import ArgumentParser
import Foundation
import Slippers
import SlippersNetworking

/// The options of the lists asked for by POST: a GraphQL connection (`--graphql`) or a cursor
/// in a JSON body (`--post-body`). Shared by `sync` and `detect`.
struct PostedStyleOptions: ParsableArguments {
    @Option(
        name: .customLong("graphql"),
        help: ArgumentHelp(
            "A GraphQL query, or @FILE to read it from a file: the list is a Relay connection, asked for by POST "
                + "with $first (--page-size, default 50) and $after; a query that declares $offset, $skip or $page "
                + "with $limit, $first or $pageSize is paged by them instead.", valueName: "query"))
    var graphQL: String?

    @Option(
        help: ArgumentHelp(
            "The key path of the connection under data, such as repository.issues (default: the first "
                + "connection in the first response; for a list paged by an offset or a page number, the first "
                + "array of objects, whatever its key).", valueName: "path"))
    var connection: String?

    @Option(
        help: ArgumentHelp(
            "The query's variables: a JSON object, or @FILE. Stored with the cache: give credentials "
                + "with --header, never here.", valueName: "json"))
    var variables: String?

    @Option(
        name: .customLong("operation-name"),
        help: ArgumentHelp("The operation to run when the query holds several.", valueName: "name"))
    var operationName: String?

    @Option(
        name: .customLong("offset-variable"),
        help: ArgumentHelp(
            "With --graphql, a list that is not a Relay connection, paged by an offset in this variable, "
                + "its size in --size-variable (default: a query that declares $offset, $skip or $start with "
                + "$limit, $first or $pageSize pages by them).", valueName: "name"))
    var offsetVariable: String?

    @Option(
        name: .customLong("page-variable"),
        help: ArgumentHelp(
            "With --graphql, a list paged by a page number in this variable, its size in --size-variable "
                + "(default: a query that declares $page with $limit, $first or $pageSize pages by them); "
                + "from 0 when the query declares $page: Int = 0 or page 0 brings items page 1 did not, else from 1.",
            valueName: "name"))
    var pageVariable: String?

    @Option(
        name: .customLong("size-variable"),
        help: ArgumentHelp(
            "The variable that carries the page size of a list paged by an offset or a page number "
                + "(default: the one the query declares, else limit).", valueName: "name"))
    var sizeVariable: String?

    @Option(
        name: .customLong("post-body"),
        help: ArgumentHelp(
            "A JSON object, or @FILE: the list is asked for by POST with this body, its cursor set at "
                + "--cursor-path. Stored with the cache: give credentials with --header.", valueName: "json"))
    var postBody: String?

    @Option(
        name: .customLong("cursor-path"),
        help: ArgumentHelp(
            "With --post-body, where the cursor goes in the body, such as start_cursor or search_after; "
                + "for a list asked for by GET, where the body gives the next cursor, such as cursor or "
                + "meta.next_cursor (sent back as --cursor-param).", valueName: "path"))
    var cursorPath: String?

    @Option(
        name: .customLong("next-cursor-path"),
        help: ArgumentHelp("Where a response gives the next cursor (default: next_cursor).", valueName: "path"))
    var nextCursorPath: String?

    /// Where a GET list's response gives its next cursor: `--cursor-path` or `--next-cursor-path`.
    var responseCursorPath: String? { isPosted ? nil : cursorPath ?? nextCursorPath }

    @Option(
        name: .customLong("next-cursor-from-item"),
        help: ArgumentHelp(
            "Read the next cursor from this member of the page's last item instead, such as sort "
                + "(Elasticsearch's search_after).", valueName: "path"))
    var nextCursorFromItem: String?

    @Option(
        name: .customLong("page-size-path"),
        help: ArgumentHelp(
            "Where --page-size goes in the --post-body, such as page_size or size.", valueName: "path"))
    var pageSizePath: String?

    /// Whether the list is asked for by POST.
    var isPosted: Bool { graphQL != nil || postBody != nil }

    /// How a `--graphql` list is paged: an offset or page number in the variable named, else as the
    /// query's declared variables say, else a Relay cursor.
    func graphQLPaging() throws -> PaginationStyle.GraphQLConnection.Paging {
        if let offsetVariable { return .offset(variable: offsetVariable) }
        if let pageVariable { return .page(variable: pageVariable, firstPage: 1) }
        guard let graphQL else { return .cursor }
        let query = try Self.text(of: graphQL, option: "--graphql")
        return PaginationStyle.GraphQLConnection.paging(declaredIn: query)?.paging ?? .cursor
    }

    func validate() throws {
        if graphQL != nil, postBody != nil {
            throw ValidationError("--graphql and --post-body cannot be used together.")
        }
        if graphQL == nil {
            for (name, value) in [
                ("--connection", connection), ("--variables", variables), ("--operation-name", operationName),
                ("--offset-variable", offsetVariable), ("--page-variable", pageVariable),
                ("--size-variable", sizeVariable),
            ] where value != nil {
                throw ValidationError("\(name) goes with --graphql.")
            }
        }
        if offsetVariable != nil, pageVariable != nil {
            throw ValidationError("--offset-variable and --page-variable are two ways of paging: give one.")
        }
        if sizeVariable != nil, try graphQLPaging() == .cursor {
            throw ValidationError(
                "--size-variable goes with a list paged by an offset or a page number: declare $offset, $skip or "
                    + "$page in the query, or give --offset-variable or --page-variable ($first pages a connection).")
        }
        if postBody == nil {
            for (name, value) in [
                ("--next-cursor-from-item", nextCursorFromItem), ("--page-size-path", pageSizePath),
            ] where value != nil {
                throw ValidationError("\(name) goes with --post-body.")
            }
            if cursorPath != nil, nextCursorPath != nil {
                throw ValidationError(
                    "--cursor-path and --next-cursor-path say the same for a list asked for by GET: give one.")
            }
            if graphQL != nil, cursorPath != nil || nextCursorPath != nil {
                throw ValidationError("--cursor-path does not apply to --graphql: the cursor is pageInfo.endCursor.")
            }
        }
        if nextCursorPath != nil, nextCursorFromItem != nil {
            throw ValidationError("--next-cursor-path and --next-cursor-from-item cannot be used together.")
        }
        if let graphQL,
            try Self.text(of: graphQL, option: "--graphql").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            throw ValidationError("--graphql is empty: give a query, or @FILE.")
        }
        if let variables { _ = try Self.jsonObject(try Self.text(of: variables, option: "--variables"), "--variables") }
        if let postBody { _ = try Self.jsonObject(try Self.text(of: postBody, option: "--post-body"), "--post-body") }
    }

    /// The request's style these options give with the list's shape (`--page-param paging.pageNo`,
    /// `--page-size`, `--items-path`…): what `sync`, `enqueue` and `detect` ask for.
    func requestStyle(shape: ListShapeOptions) throws -> SyncRequest.Style {
        var style = SyncRequest.Style()
        style.name = shape.style?.rawValue
        style.itemsPath = shape.itemsPath
        style.idField = shape.idField
        style.pageSize = shape.pageSize
        style.pageParameter = shape.pageParameter
        style.pageSizeParameter = shape.pageSizeParameter
        style.cursorParameter = shape.cursorParameter
        style.totalPath = shape.totalPath
        style.graphQL = try graphQL.map { try Self.text(of: $0, option: "--graphql") }
        style.variables = try variables.map { try Self.text(of: $0, option: "--variables") }
        style.postBody = try postBody.map { try Self.text(of: $0, option: "--post-body") }
        style.connection = connection
        style.operationName = operationName
        style.offsetVariable = offsetVariable
        style.pageVariable = pageVariable
        style.sizeVariable = sizeVariable
        style.cursorPath = cursorPath
        style.nextCursorPath = nextCursorPath
        style.nextCursorFromItem = nextCursorFromItem
        style.pageSizePath = pageSizePath
        return style
    }

    /// An option's text, or the file it names with `@`.
    static func text(of value: String, option: String) throws -> String {
        guard value.hasPrefix("@") else { return value }
        let path = String(value.dropFirst())
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("\(option): cannot read the file \(path.shortenedForErrors)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Checks that a text is a JSON object.
    @discardableResult
    static func jsonObject(_ text: String, _ option: String) throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw ValidationError("\(option) must be a JSON object, such as {\"key\": \"value\"}.")
        }
        return object
    }
}
