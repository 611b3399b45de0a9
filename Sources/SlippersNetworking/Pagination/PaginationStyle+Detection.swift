import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension PaginationStyle {
    /// The keys, in order of preference, under which APIs put the items array.
    public static let itemsKeys = ["results", "items", "data", "rows", "records", "entries"]
    /// The keys of a next page's URL in a body.
    public static let nextURLKeys = ["next", "next_url", "next_page_url", "nextUrl", "nextPageUrl"]
    /// The keys of a next cursor in a body, with the query parameter each is sent back with.
    public static let cursorKeys: [(key: String, parameter: String)] = [
        ("next_cursor", "cursor"), ("nextCursor", "cursor"), ("next_page_token", "page_token"),
        ("nextPageToken", "pageToken"), ("next_token", "next_token"), ("cursor", "cursor"), ("after", "after"),
        ("next", "cursor"),
    ]
    /// The objects that commonly hold pagination fields next to the items.
    static let metadataKeys = ["meta", "pagination", "paging", "links", "cursor"]

    /// Guesses the style of an API from the URL of its first page and that page's response.
    ///
    /// The rules, first match wins:
    /// 1. a `Link` header with `rel="next"` → ``Kind/linkHeader``;
    /// 2. a URL at `next`, `next_url`, `next_page_url` (at the root, or under
    ///    `meta`, `pagination`, `links`…) → ``Kind/nextURL(keyPath:)``;
    /// 3. a cursor at `next_cursor`, `next_page_token`, `cursor`, `after`… → ``Kind/cursor(parameter:keyPath:)``,
    ///    sent back under the URL's cursor parameter when it has one;
    /// 4. `offset`/`limit` in the URL or the body → ``Kind/offset(parameter:)``;
    /// 5. otherwise page numbers, `page` from 1 (from 0 when the URL asks for page 0).
    ///
    /// The items are the body when it is an array, else the first array under
    /// `results`, `items`, `data`, `rows`, `records`, `entries` (or `data.items`…),
    /// else `results`. The page size comes from `per_page`, `page_size`, `limit`
    /// or `size` in the URL; the total from `total`, `total_count` or `count`.
    /// This is a pure function.
    public static func detect(url: URL, body: Data, headers: [String: String]) -> PaginationStyle {
        let scanner = try? JSONScanner(body)
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }
        let itemsKeyPath = scanner.map(detectItemsKeyPath) ?? ""
        let totalKeyPath = scanner.flatMap(detectTotalKeyPath)
        let sizeParameter = ["per_page", "page_size", "pageSize", "limit", "size"].first { queryValue($0) != nil }
        let pageSize = sizeParameter.flatMap(queryValue).flatMap { Int($0) }

        let linkValue = headers.first { $0.key.caseInsensitiveCompare("Link") == .orderedSame }?.value
        if let linkValue, LinkHeader(linkValue).url(rel: "next") != nil {
            return PaginationStyle(
                kind: .linkHeader, itemsKeyPath: itemsKeyPath, pageSizeParameter: sizeParameter ?? "per_page",
                pageSize: pageSize, totalKeyPath: totalKeyPath)
        }
        if let scanner {
            for path in candidatePaths(nextURLKeys, in: scanner) {
                if let text = scanner.string(at: path), looksLikeURL(text) {
                    return PaginationStyle(
                        kind: .nextURL(keyPath: path.joined(separator: ".")), itemsKeyPath: itemsKeyPath,
                        totalKeyPath: totalKeyPath)
                }
            }
            for (key, parameter) in cursorKeys {
                for path in candidatePaths([key], in: scanner) {
                    guard let value = scanner.value(at: path), value.kind == .string || value.kind == .null
                    else { continue }
                    if value.kind == .string, let text = scanner.string(value), looksLikeURL(text) { continue }
                    // A null `next` is the last page of a next-URL list as often as of a cursor list.
                    if key == "next", value.kind == .null { continue }
                    let sent =
                        ["cursor", "after", "page_token", "pageToken", "starting_after"]
                        .first { queryValue($0) != nil } ?? parameter
                    return PaginationStyle(
                        kind: .cursor(parameter: sent, keyPath: path.joined(separator: ".")),
                        itemsKeyPath: itemsKeyPath, pageSizeParameter: sizeParameter ?? "limit", pageSize: pageSize,
                        totalKeyPath: totalKeyPath)
                }
            }
        }
        let bodyHasOffset = scanner.map { s in s.value(at: ["offset"]) != nil || s.value(at: ["limit"]) != nil }
        if queryValue("offset") != nil || bodyHasOffset == true {
            let limit = pageSize ?? scanner?.int(at: ["limit"])
            return PaginationStyle(
                kind: .offset(parameter: "offset"), itemsKeyPath: itemsKeyPath,
                pageSizeParameter: sizeParameter ?? "limit", pageSize: limit, totalKeyPath: totalKeyPath ?? "total")
        }
        let firstPage = queryValue("page").flatMap { Int($0) } == 0 ? 0 : 1
        let bodyPageSize = scanner?.int(at: ["per_page"]) ?? scanner?.int(at: ["page_size"])
        return PaginationStyle(
            kind: .pageNumber(parameter: "page", firstPage: firstPage), itemsKeyPath: itemsKeyPath,
            pageSizeParameter: sizeParameter ?? "per_page", pageSize: pageSize ?? bodyPageSize,
            totalKeyPath: totalKeyPath)
    }

    private static func detectItemsKeyPath(_ scanner: JSONScanner) -> String {
        if scanner.root.kind == .array { return "" }
        for key in itemsKeys {
            guard let value = scanner.value(at: [key]) else { continue }
            if value.kind == .array { return key }
            if value.kind == .object {
                for inner in itemsKeys where scanner.member(inner, of: value)?.kind == .array {
                    return "\(key).\(inner)"
                }
            }
        }
        return "results"
    }

    private static func detectTotalKeyPath(_ scanner: JSONScanner) -> String? {
        for path in candidatePaths(["total", "total_count", "totalCount", "count"], in: scanner)
        where scanner.int(at: path) != nil {
            return path.joined(separator: ".")
        }
        return nil
    }

    /// The paths of the keys at the root, then under the usual metadata objects.
    private static func candidatePaths(_ keys: [String], in scanner: JSONScanner) -> [[String]] {
        keys.map { [$0] } + metadataKeys.flatMap { meta in keys.map { [meta, $0] } }
    }

    private static func looksLikeURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || text.hasPrefix("/")
            || text.hasPrefix("?")
    }
}
