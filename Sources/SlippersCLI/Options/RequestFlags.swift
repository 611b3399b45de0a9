import SlippersKit

/// The flag of each member of a `SyncRequest`: the library's errors name members
/// (`style.postBody`), the command line names the flag that sets it (`--post-body`).
enum RequestFlags {
    static let byMember: [String: String] = [
        "url": "the URL",
        "style.name": "--style",
        "style.itemsPath": "--items-path",
        "style.idField": "--id-field",
        "style.pageSize": "--page-size",
        "style.pageParameter": "--page-param",
        "style.pageSizeParameter": "--page-size-param",
        "style.cursorParameter": "--cursor-param",
        "style.totalPath": "--total-path",
        "style.graphQL": "--graphql",
        "style.connection": "--connection",
        "style.variables": "--variables",
        "style.operationName": "--operation-name",
        "style.offsetVariable": "--offset-variable",
        "style.pageVariable": "--page-variable",
        "style.sizeVariable": "--size-variable",
        "style.postBody": "--post-body",
        "style.cursorPath": "--cursor-path",
        "style.nextCursorPath": "--next-cursor-path",
        "style.nextCursorFromItem": "--next-cursor-from-item",
        "style.pageSizePath": "--page-size-path",
        "limits.maxPages": "--max-pages",
        "limits.maxItems": "--max-items",
        "limits.stallLimit": "--stall-limit",
        "network.concurrency": "--concurrency",
        "refresh": "--refresh",
        "revalidate": "--revalidate",
    ]

    /// The error's line with the member's flag in place of the member.
    static func line(for error: SyncRequestError) -> String {
        "\(byMember[error.member] ?? error.member): \(error.reason)"
    }
}
