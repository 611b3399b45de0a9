import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How an API splits a list into pages, and where a response keeps its items.
///
/// A style is a plain value, `Codable` so that the store can keep it as JSON
/// next to a collection and resume paging in another process with nothing
/// but the style and a `PageToken`. Tokens are self-contained: a
/// page number, an offset, the server's cursor, or the full next URL.
///
/// For example:
///
/// ```swift
/// let github = PaginationStyle.linkHeader(pageSize: 50)            // Link: <…>; rel="next"
/// let django = PaginationStyle.nextURL(keyPath: "next", itemsKeyPath: "results")
/// let stripe = PaginationStyle.cursor(parameter: "starting_after", keyPath: "next_cursor", itemsKeyPath: "data")
/// ```
public struct PaginationStyle: Codable, Sendable, Hashable {
    /// The way pages are asked for.
    public var kind: Kind
    /// The key path of the items array, such as `results` or `data.items`; empty when the body is the array.
    public var itemsKeyPath: String
    /// The member of each item that holds its id.
    public var idField: String
    /// The query parameter that sets the page size, such as `per_page` or `limit`; `nil` to send none.
    public var pageSizeParameter: String?
    /// The page size to ask for; `nil` to leave it to the server.
    public var pageSize: Int?
    /// The key path of the list's total count in the body, such as `total` or `meta.total`.
    ///
    /// An `X-Total-Count` header is read as well.
    public var totalKeyPath: String?

    /// The ways of asking for pages.
    public enum Kind: Codable, Sendable, Hashable {
        /// `?page=N`, numbered from `firstPage` (0 or 1). The token is the page number.
        case pageNumber(parameter: String, firstPage: Int)
        /// `?offset=N&limit=M`. The token is the offset.
        case offset(parameter: String)
        /// `?cursor=C`, with the next cursor in the body at `keyPath`. The token is the cursor.
        case cursor(parameter: String, keyPath: String)
        /// The full URL of the next page in the body at `keyPath` (`next`, `next_url`…). The token is the URL.
        case nextURL(keyPath: String)
        /// RFC 8288 `Link: <url>; rel="next"` headers. The token is the URL.
        case linkHeader
    }

    /// Creates a style.
    public init(
        kind: Kind,
        itemsKeyPath: String = "",
        idField: String = "id",
        pageSizeParameter: String? = nil,
        pageSize: Int? = nil,
        totalKeyPath: String? = nil
    ) {
        self.kind = kind
        self.itemsKeyPath = itemsKeyPath
        self.idField = idField
        self.pageSizeParameter = pageSizeParameter
        self.pageSize = pageSize
        self.totalKeyPath = totalKeyPath
    }

    /// Page numbers: `?page=N&per_page=M`.
    public static func pageNumber(
        parameter: String = "page",
        firstPage: Int = 1,
        pageSizeParameter: String? = "per_page",
        pageSize: Int? = nil,
        itemsKeyPath: String = "",
        totalKeyPath: String? = nil,
        idField: String = "id"
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .pageNumber(parameter: parameter, firstPage: firstPage), itemsKeyPath: itemsKeyPath,
            idField: idField, pageSizeParameter: pageSizeParameter, pageSize: pageSize, totalKeyPath: totalKeyPath)
    }

    /// Offsets: `?offset=N&limit=M`, with the total in the body.
    public static func offset(
        parameter: String = "offset",
        limitParameter: String = "limit",
        limit: Int? = nil,
        itemsKeyPath: String = "results",
        totalKeyPath: String? = "total",
        idField: String = "id"
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .offset(parameter: parameter), itemsKeyPath: itemsKeyPath, idField: idField,
            pageSizeParameter: limitParameter, pageSize: limit, totalKeyPath: totalKeyPath)
    }

    /// Cursors: `?cursor=C`, the next cursor read from the body.
    public static func cursor(
        parameter: String = "cursor",
        keyPath: String = "next_cursor",
        pageSizeParameter: String? = "limit",
        pageSize: Int? = nil,
        itemsKeyPath: String = "data",
        idField: String = "id"
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .cursor(parameter: parameter, keyPath: keyPath), itemsKeyPath: itemsKeyPath, idField: idField,
            pageSizeParameter: pageSizeParameter, pageSize: pageSize)
    }

    /// Next URLs in the body: `{"next": "https://…?page=3", "results": […]}`.
    public static func nextURL(
        keyPath: String = "next",
        itemsKeyPath: String = "results",
        totalKeyPath: String? = nil,
        idField: String = "id"
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .nextURL(keyPath: keyPath), itemsKeyPath: itemsKeyPath, idField: idField,
            totalKeyPath: totalKeyPath)
    }

    /// `Link` headers (RFC 8288), as GitHub sends them.
    public static func linkHeader(
        pageSizeParameter: String? = "per_page",
        pageSize: Int? = nil,
        itemsKeyPath: String = "",
        idField: String = "id"
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .linkHeader, itemsKeyPath: itemsKeyPath, idField: idField,
            pageSizeParameter: pageSizeParameter, pageSize: pageSize)
    }

    /// The query parameters this style sets itself, left out of a collection's key.
    public var paginationParameters: Set<String> {
        var names: Set<String> = []
        switch kind {
        case .pageNumber(let parameter, _), .offset(let parameter), .cursor(let parameter, _):
            names.insert(parameter)
        case .nextURL, .linkHeader:
            break
        }
        if let pageSizeParameter { names.insert(pageSizeParameter) }
        return names
    }

    static func components(_ keyPath: String?) -> [String] {
        guard let keyPath, !keyPath.isEmpty else { return [] }
        return keyPath.split(separator: ".").map(String.init)
    }
}
