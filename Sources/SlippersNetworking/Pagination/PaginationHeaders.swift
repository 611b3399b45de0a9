import Foundation

/// What a response's headers announce about its list: the total, the number of pages, the page size.
///
/// Servers that answer a bare array keep their pagination metadata in headers:
/// `X-Total-Count` (json-server, many REST APIs), flask-smorest's `X-Pagination`
/// (a JSON object with `total`, `total_pages`, `page`, `next_page`…), PostgREST's
/// `Content-Range: 0-49/1234`, Rails' api-pagination `Total` and `Per-Page`, and the
/// `X-Total`/`X-Total-Pages`, `X-WP-Total`/`X-WP-TotalPages`, `X-Pagination-Total-Count`/
/// `X-Pagination-Page-Count`/`X-Pagination-Per-Page` and `Total-Records` families.
///
/// For example:
///
/// ```swift
/// let announced = PaginationHeaders { name in response.header(name) }
/// announced.total        // 1234, from X-Pagination: {"total": 1234, "total_pages": 124, …}
/// announced.pageCount    // 124
/// ```
public struct PaginationHeaders: Hashable, Sendable {
    /// The number of items in the whole list, when a header says.
    public var total: Int?
    /// The name of the header that gave ``total``, as in `X-Total-Count` or `X-WP-Total`.
    var totalHeader: String?
    /// The number of pages, when a header says (`X-Pagination`'s `total_pages`, `X-Total-Pages`,
    /// `X-WP-TotalPages`, `X-Pagination-Page-Count`).
    public var pageCount: Int?
    /// The page size the server used, when a header says (`Per-Page`, `X-Per-Page`).
    var pageSize: Int?
    /// Whether a header says this page is the last: `X-Pagination` without a `next_page`, or an
    /// empty `X-Next-Page` (servers that name the next page's number there leave it empty on the last).
    package var isLastPage = false
    /// The unit of ranges the server pages in, other than bytes: `items` from `Content-Range: items 0-49/1234`
    /// or `Accept-Ranges: items`; such a list is asked for by `Range: items=0-49` headers.
    var rangeUnit: String?
    /// The number of items the response's `Content-Range` covers: 50 for `items 0-49/1234`.
    var rangeLength: Int?
    /// The names of the headers that said something, for explaining a detection.
    var names: [String] = []

    /// Reads the pagination headers of a response; `header` answers a header's value by name, case-insensitively.
    public init(header: (String) -> String?) {
        if let text = header("X-Pagination"), let object = try? JSONScanner(Data(text.utf8)),
            object.root.kind == .object
        {
            names.append("X-Pagination")
            total = object.int(at: ["total"])
            if total != nil { totalHeader = "X-Pagination" }
            pageCount = object.int(at: ["total_pages"]) ?? object.int(at: ["last_page"])
            pageSize = object.int(at: ["page_size"])
            // flask-smorest names the next page on every page but the last.
            if object.value(at: ["page"]) != nil, object.int(at: ["next_page"]) == nil { isLastPage = true }
        }
        if let next = header("X-Next-Page"), next.trimmingCharacters(in: .whitespaces).isEmpty {
            names.append("X-Next-Page")
            isLastPage = true
        }
        for name in ["X-Total-Count", "X-Total", "Total", "X-WP-Total", "X-Pagination-Total-Count", "Total-Records"] {
            guard let value = header(name).flatMap(Self.integer(text:)) else { continue }
            names.append(name)
            if total == nil { (total, totalHeader) = (value, name) }
        }
        if let range = header("Content-Range") {
            let (unit, length) = Self.contentRangeUnitAndLength(range)
            if let announced = Self.contentRangeTotal(range) {
                names.append("Content-Range")
                if total == nil { (total, totalHeader) = (announced, "Content-Range") }
            }
            if let unit, unit.lowercased() != "bytes" { rangeUnit = unit }
            rangeLength = length
        }
        if rangeUnit == nil, let accepted = header("Accept-Ranges")?.trimmingCharacters(in: .whitespaces),
            !accepted.isEmpty, !["bytes", "none"].contains(accepted.lowercased())
        {
            rangeUnit = accepted
        }
        for name in ["X-Total-Pages", "X-WP-TotalPages", "X-Pagination-Page-Count"] {
            guard let pages = header(name).flatMap(Self.integer(text:)) else { continue }
            names.append(name)
            if pageCount == nil { pageCount = pages }
        }
        for name in ["Per-Page", "X-Per-Page", "X-Pagination-Per-Page"] {
            guard let size = header(name).flatMap(Self.integer(text:)) else { continue }
            names.append(name)
            if pageSize == nil { pageSize = size }
        }
    }

    /// Whether any header announced something about the list.
    public var isEmpty: Bool { names.isEmpty }

    /// The unit and length of a `Content-Range` value such as `items 0-49/1234` (`items`, 50); the unit is
    /// `nil` when the value has none, as PostgREST's `0-49/1234`.
    static func contentRangeUnitAndLength(_ value: String) -> (unit: String?, length: Int?) {
        let parts = value.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        let unit = parts.count == 2 ? String(parts[0]) : nil
        let range = (parts.last ?? "").split(separator: "/").first ?? ""
        let bounds = range.split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, bounds[1] >= bounds[0] else { return (unit, nil) }
        return (unit, bounds[1] - bounds[0] + 1)
    }

    /// The total of a `Content-Range` value such as `items 0-49/1234` or `0-49/1234`; `nil` for `*` or a malformed value.
    static func contentRangeTotal(_ value: String) -> Int? {
        guard let slash = value.lastIndex(of: "/") else { return nil }
        return integer(text: String(value[value.index(after: slash)...]))
    }

    private static func integer(text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces)).flatMap { $0 >= 0 ? $0 : nil }
    }
}
