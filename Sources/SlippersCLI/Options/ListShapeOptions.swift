import ArgumentParser
import SlippersKit
import SlippersNetworking

/// The options that describe how a list pages and where its items are, instead of detecting it.
/// Shared by `sync` and `detect`, which accept them alike.
struct ListShapeOptions: ParsableArguments {
    @Option(help: "Force the pagination style instead of detecting it.")
    var style: StyleOption?

    @Option(
        help: ArgumentHelp(
            "The key path of the items array, such as results or data.items; \"\" for a bare array (default: detected).",
            valueName: "path"))
    var itemsPath: String?

    @Option(help: ArgumentHelp("The member of each item that holds its id (default: id).", valueName: "name"))
    var idField: String?

    @Option(
        help: ArgumentHelp(
            "Ask the server for this many items per page, under the size parameter the URL or its first response "
                + "names (--page-size-param otherwise).", valueName: "count"))
    var pageSize: Int?

    @Option(
        name: .customLong("page-param"),
        help: ArgumentHelp(
            "The query parameter that numbers pages, such as current_page: the list pages by page numbers; "
                + "with --style offset, the parameter that takes the offset, such as skip. q.page names the member "
                + "page of a rison or JSON object in ?q= (?q=(page:0,page_size:100)).",
            valueName: "name"))
    var pageParameter: String?

    @Option(
        name: .customLong("page-size-param"),
        help: ArgumentHelp(
            "The query parameter that sets the page size, such as page_size; q.page_size names a member of the "
                + "object encoded in ?q=, as --page-param does.", valueName: "name"))
    var pageSizeParameter: String?

    @Option(
        name: .customLong("cursor-param"),
        help: ArgumentHelp(
            "The query parameter a cursor read from the body (--cursor-path) is sent back as (default: cursor); "
                + "an asterisk sends each member of a continuation object there back as a parameter of its own.",
            valueName: "name"))
    var cursorParameter: String?

    @Option(
        name: .customLong("total-path"),
        help: ArgumentHelp(
            "The key path of the list's total in the body, such as count or meta.total; checked when the walk ends.",
            valueName: "path"))
    var totalPath: String?

    /// Checks these options against each other and against the POST options.
    func validate(posted: PostedStyleOptions) throws {
        if posted.graphQL != nil, style != nil {
            throw ValidationError("--style does not apply to --graphql, which gives the style.")
        }
        if posted.postBody != nil, let style, style != .pageNumber, style != .offset {
            throw ValidationError(
                "--style \(style.rawValue) does not apply to --post-body: a body pages by a cursor (--cursor-path), "
                    + "a page number or an offset (--style pageNumber or offset, --page-param PATH).")
        }
        if posted.graphQL != nil, itemsPath != nil {
            throw ValidationError("--items-path does not apply to --graphql: items are the connection's nodes.")
        }
        if posted.graphQL != nil, pageParameter != nil || cursorParameter != nil {
            throw ValidationError("--page-param and --cursor-param do not apply to --graphql: use --page-variable.")
        }
        if posted.postBody != nil, cursorParameter != nil {
            throw ValidationError("--cursor-param goes with lists asked for by GET; a body's cursor is --cursor-path.")
        }
        if let body = posted.postBody, posted.cursorPath == nil, pageParameter == nil,
            PaginationStyle.BodyCursor.numbered(in: try PostedStyleOptions.text(of: body, option: "--post-body")) == nil
        {
            throw ValidationError(
                "--post-body needs --cursor-path (where a cursor goes in the body) or --page-param (the path of a "
                    + "page number or offset in it): the body holds no member named as pages or offsets are.")
        }
        if posted.postBody != nil, posted.cursorPath != nil, pageParameter != nil {
            throw ValidationError("--cursor-path and --page-param are two ways of paging a body: give one.")
        }
        if posted.responseCursorPath != nil, let style, style != .cursor {
            throw ValidationError("--cursor-path reads a cursor: it goes with --style cursor, not \(style.rawValue).")
        }
        if posted.responseCursorPath != nil, pageParameter != nil {
            throw ValidationError("--cursor-path and --page-param are two ways of paging: give one.")
        }
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be 1 or more.") }
        if style == StyleOption.singlePage, pageSize != nil {
            throw ValidationError("--page-size does not apply to --style singlePage, whose list is one response.")
        }
        if pageParameter != nil, let style, style != .pageNumber, style != .offset {
            throw ValidationError("--page-param goes with page numbers or offsets, not --style \(style.rawValue).")
        }
        for (name, value) in [
            ("--page-param", pageParameter), ("--page-size-param", pageSizeParameter),
            ("--cursor-param", cursorParameter),
        ] where value?.isEmpty == true {
            throw ValidationError("\(name) is empty: give a parameter name.")
        }
    }

    /// The overrides these options give, with a GET list's cursor path from the POST options.
    func overrides(posted: PostedStyleOptions, postedStyle: PaginationStyle?) -> StyleOverrides {
        StyleOverrides(
            style: postedStyle ?? style?.template, itemsPath: posted.isPosted ? nil : itemsPath, idField: idField,
            pageSize: pageSize, pageParameter: pageParameter, pageSizeParameter: pageSizeParameter,
            cursorPath: posted.isPosted ? nil : posted.responseCursorPath,
            cursorParameter: cursorParameter == "*" ? "" : cursorParameter,
            totalPath: totalPath)
    }
}
