import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How an API splits a list into pages, and where a response keeps its items.
///
/// A style is a plain value, `Codable` so that the cache can keep it as JSON
/// next to a list and resume paging in another process with nothing
/// but the style and a `PageToken`. Tokens are self-contained: a
/// page number, an offset, the server's cursor, or the full next URL.
///
/// For example:
///
/// ```swift
/// let github = PaginationStyle.linkHeader(pageSize: 50)            // Link: <…>; rel="next"
/// let django = PaginationStyle.nextURL(keyPath: "next", itemsKeyPath: "results")
/// let slack = PaginationStyle.cursor(keyPath: "response_metadata.next_cursor", itemsKeyPath: "members")
/// let stripe = PaginationStyle.afterLastItem(parameter: "starting_after", itemsKeyPath: "data")
/// let odata = PaginationStyle.nextURL(keyPath: #"@odata\.nextLink"#, itemsKeyPath: "value")
/// ```
///
/// Key paths (``itemsKeyPath``, ``totalKeyPath``, the key paths of ``Kind``
/// and ``EndSignal``) are ``JSONKeyPath`` text: keys separated by dots, a dot
/// inside a key escaped with a backslash (`@odata\.nextLink`).
public struct PaginationStyle: Codable, Sendable, Hashable {
    /// The way pages are asked for.
    public var kind: Kind
    /// The key path of the items array, such as `results` or `data.items`; empty when the body is the array.
    ///
    /// Keys are separated by dots; a dot or a backslash inside a key is
    /// escaped with a backslash (see ``JSONKeyPath``).
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
    /// What in the body says that a page is the last, beside the style's own end (no next
    /// cursor or URL, an empty page, the total reached); `nil` for the usual keys only.
    ///
    /// A style stored before this member existed decodes with `nil`.
    public var endSignal: EndSignal?
    /// For a next-URL or `Link` list, how its next URL advances from page to page, when it is the
    /// list's URL with one parameter advanced: then every page is named without the ones before
    /// it, and fetched several at once. Learnt by detection; `nil` for other lists, and for a style
    /// stored before this member existed.
    public var advancing: Advancing?
    /// The media type the list is asked for with (`Accept`), for a server that refuses `application/json`
    /// and serves its own JSON type, such as JSON:API's `application/vnd.api+json`; `nil` for `application/json`.
    ///
    /// Learnt by detection from a `406`; a style stored before this member existed decodes with `nil`.
    var accept: String?
    /// The largest page size the server takes, when a sync learnt that it takes no more than
    /// the page size: it refused (`400`, `422`) or cut short a page asked for one item more, to
    /// check the page boundary against the item before it; `nil` when nothing was learnt.
    ///
    /// Pages whose request would ask for more than this are asked for plainly, with no item
    /// before them: the list's drift is then checked by the other signals (the ids at page
    /// boundaries, the total, the last page read early). Recorded with the list's style,
    /// so the next run does not ask again; it is no part of the style's fingerprint. A style
    /// stored before this member existed decodes with `nil`.
    public var maxPageSize: Int?

    /// A member of the body that tells whether a page is the last.
    public enum EndSignal: Codable, Sendable, Hashable {
        /// The number of pages, such as `total_pages`, `totalPages`, `pages` or `last_page`:
        /// the page of that rank is the last. Read by page-number lists.
        case pageCount(keyPath: String)
        /// A boolean that is `false` on the last page, such as `has_more` or `hasMore`.
        case hasMore(keyPath: String)
        /// A boolean that is `true` on the last page, such as Spring Data's `last`.
        case isLast(keyPath: String)

        /// The key path of the member.
        var keyPath: String {
            switch self {
            case .pageCount(let keyPath), .hasMore(let keyPath), .isLast(let keyPath): keyPath
            }
        }
    }

    /// Creates a style.
    public init(
        kind: Kind,
        itemsKeyPath: String = "",
        idField: String = "id",
        pageSizeParameter: String? = nil,
        pageSize: Int? = nil,
        totalKeyPath: String? = nil,
        endSignal: EndSignal? = nil,
        advancing: Advancing? = nil
    ) {
        self.kind = kind
        self.itemsKeyPath = itemsKeyPath
        self.idField = idField
        self.pageSizeParameter = pageSizeParameter
        self.pageSize = pageSize
        self.totalKeyPath = totalKeyPath
        self.endSignal = endSignal
        self.advancing = advancing
    }

    /// Page numbers: `?page=N&per_page=M`.
    ///
    /// For example, Spring Data's `Page`:
    ///
    /// ```swift
    /// .pageNumber(firstPage: 0, pageSizeParameter: "size", itemsKeyPath: "content",
    ///             totalKeyPath: "totalElements", endSignal: .isLast(keyPath: "last"))
    /// ```
    public static func pageNumber(
        parameter: String = "page",
        firstPage: Int = 1,
        pageSizeParameter: String? = "per_page",
        pageSize: Int? = nil,
        itemsKeyPath: String = "",
        totalKeyPath: String? = nil,
        idField: String = "id",
        endSignal: EndSignal? = nil
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .pageNumber(parameter: parameter, firstPage: firstPage), itemsKeyPath: itemsKeyPath,
            idField: idField, pageSizeParameter: pageSizeParameter, pageSize: pageSize, totalKeyPath: totalKeyPath,
            endSignal: endSignal)
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
        idField: String = "id",
        endSignal: EndSignal? = nil
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .cursor(parameter: parameter, keyPath: keyPath), itemsKeyPath: itemsKeyPath, idField: idField,
            pageSizeParameter: pageSizeParameter, pageSize: pageSize, endSignal: endSignal)
    }

    /// The id of the previous page's last item: `?starting_after=ID&limit=M`, until `has_more` is `false` (Stripe).
    public static func afterLastItem(
        parameter: String = "starting_after",
        hasMoreKeyPath: String = "has_more",
        pageSizeParameter: String? = "limit",
        pageSize: Int? = nil,
        itemsKeyPath: String = "data",
        idField: String = "id"
    ) -> PaginationStyle {
        PaginationStyle(
            kind: .afterLastItem(parameter: parameter), itemsKeyPath: itemsKeyPath, idField: idField,
            pageSizeParameter: pageSizeParameter, pageSize: pageSize, endSignal: .hasMore(keyPath: hasMoreKeyPath))
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

    /// A list that does not page: one request to the URL as it is, whose response holds every item.
    ///
    /// For example, JSONPlaceholder's `/posts`, a bare array of 100 posts:
    ///
    /// ```swift
    /// let posts = PaginationStyle.singlePage()
    /// let wrapped = PaginationStyle.singlePage(itemsKeyPath: "results")
    /// ```
    public static func singlePage(itemsKeyPath: String = "", idField: String = "id") -> PaginationStyle {
        PaginationStyle(kind: .singlePage, itemsKeyPath: itemsKeyPath, idField: idField)
    }

    /// `Range` request headers in `unit`, the total read from `Content-Range`: `Range: items=0-49`.
    public static func range(
        unit: String = "items", pageSize: Int? = nil, itemsKeyPath: String = "", idField: String = "id"
    ) -> PaginationStyle {
        PaginationStyle(kind: .range(unit: unit), itemsKeyPath: itemsKeyPath, idField: idField, pageSize: pageSize)
    }

    /// The query parameters this style sets itself, left out of a list's key.
    package var paginationParameters: Set<String> {
        var names = continuation.parameters
        if let pageSizeParameter { names.insert(pageSizeParameter) }
        return names
    }

    /// The keys of a key path written as ``JSONKeyPath`` text; none for `nil`.
    static func components(_ keyPath: String?) -> [String] {
        guard let keyPath, !keyPath.isEmpty else { return [] }
        return JSONKeyPath(keyPath).keys
    }
}
