import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension PaginationStyle {
    /// The keys, in order of preference, under which APIs put the items array.
    static let itemsKeys = ["results", "items", "data", "rows", "records", "entries", "content", "value"]
    /// The keys of a next page's URL in a body.
    public static let nextURLKeys = ["next", "next_url", "next_page_url", "nextUrl", "nextPageUrl", "nextLink"]
    /// The keys of a next cursor in a body, with the query parameter each is sent back with.
    public static let cursorKeys: [(key: String, parameter: String)] = [
        ("next_cursor", "cursor"), ("nextCursor", "cursor"), ("next_page_token", "page_token"),
        ("nextPageToken", "pageToken"), ("next_token", "next_token"), ("cursor", "cursor"), ("after", "after"),
        ("continuation", "continuation"), ("next", "cursor"),
    ]
    /// The query parameters that set a page size, in order of preference.
    static let pageSizeParameters = [
        "per_page", "page_size", "pageSize", "perPage", "results_per_page", "limit", "size", "_limit", "page[size]",
    ]
    /// The query parameters that number pages, in order of preference.
    static let pageParameters = [
        "page", "current_page", "page_number", "pageNumber", "pageNo", "_page", "page[number]", "p",
    ]
    /// The keys of a page count in a body: the number of pages, or the number of the last page.
    static let pageCountKeys = [
        "total_pages", "totalPages", "pages", "page_count", "pageCount", "last_page", "lastPage",
    ]
    /// The keys of the list's total count in a body.
    public static let totalKeys = [
        "total", "total_count", "totalCount", "count", "totalElements", "total_items", "totalItems", "@odata.count",
        "filtered_table_rows_count", "total_results", "totalResults", "total_entries", "totalRecords",
        "total_records", "totalHits", "numberMatched",
    ]
    /// The objects that commonly hold pagination fields next to the items.
    static let metadataKeys = [
        "meta", "pagination", "paging", "links", "_links", "cursor", "response_metadata", "page",
    ]
    /// The members of an item that commonly hold its id, in order of preference.
    static let idFields = ["id", "_id", "uuid", "ID", "Id"]

    /// Guesses the style of an API from the URL of its first page and that page's response, and says why.
    ///
    /// The rules, first match wins:
    /// 1. a `Link` header with `rel="next"`, or a header holding the next page's URL (`Next-Page`,
    ///    `X-Next-Page`, `X-Next`) → ``Kind/linkHeader``;
    /// 2. OData's `@odata.nextLink` (or an `@odata.context` without it) →
    ///    ``Kind/nextURL(keyPath:)`` at `@odata\.nextLink`, items under `value`;
    /// 3. an array of link objects (`links`, `link`, `_links`) one of which has `rel` `next` (a
    ///    string or a list) → ``Kind/nextURL(keyPath:)`` at the array, following that link's `href`;
    /// 4. a URL at `next`, `next_url`, `next_page_url`, `nextLink` (at the root, or under
    ///    `meta`, `pagination`, `links`, `_links`…), as a string or a link object's `href` →
    ///    ``Kind/nextURL(keyPath:)``; JSON:API's `links.next` and HAL's `_links.next.href` are ones;
    ///    so is a `null` `next` beside a `previous` (Django REST framework's last page);
    /// 5. a cursor at `next_cursor`, `next_page_token`, `cursor`, `after`… (at the root, or under
    ///    `meta`, `response_metadata`…) → ``Kind/cursor(parameter:keyPath:)``,
    ///    sent back under the URL's cursor parameter when it has one;
    /// 6. a `has_more` boolean with no page number in the URL → ``Kind/afterLastItem(parameter:)``
    ///    (Stripe's `starting_after`);
    /// 7. a page number or offset inside a rison or JSON object in a query parameter
    ///    (`?q=(page:0,page_size:100)`) → ``Kind/pageNumber(parameter:firstPage:)`` or
    ///    ``Kind/offset(parameter:)`` at `q.page` (see ``encodedPaging(in:)``); else
    ///    `offset`/`limit` in the URL or the body → ``Kind/offset(parameter:)``;
    /// 8. otherwise page numbers, `page` from 1 (from 0 when the URL asks for page 0,
    ///    or when the body numbers the first page 0, as Spring Data does). When nothing numbers
    ///    the page nor counts the list, `page` from 0 is its first alternative, whose page 2
    ///    (`?page=1`) is asked for first and tells the two apart. When nothing names the page,
    ///    `?offset=` and `?skip=` are alternatives; so is, for a list that counts more items than
    ///    its page and whose URL holds no `q`, a page from 0 inside a rison object `?q=(page:1)`.
    ///
    /// What the rules infer is a proposal: ``Detection/alternatives`` holds the other ways, in the
    /// order page 2 is to be asked for in (see ``HTTPPageSource/probingSecondPage(firstPage:alternatives:)``).
    ///
    /// The items are the body when it is an array, else the first array under
    /// `results`, `items`, `data`, `rows`, `records`, `entries`, `content`, `value`
    /// (or `data.items`…), else the first array of objects at the root, else `results`.
    /// The page size comes from `per_page`, `page_size`, `pageSize`, `limit` or
    /// `size` in the URL, or in the body (then sent back under the body's name).
    /// The total comes from `total`, `total_count`, `count`, `totalElements`…;
    /// the end of the list from a page count (`total_pages`, `totalPages`,
    /// `pages`, `last_page`), `has_more` or `last`. This is a pure function.
    ///
    /// For example:
    ///
    /// ```swift
    /// let detection = PaginationStyle.explain(url: url, body: body, headers: [:])
    /// print(detection.style.kind, detection.confidence, detection.reasons)
    /// ```
    public static func explain(url: URL, body: Data, headers: [String: String]) -> Detection {
        var detector = Detector(url: url, body: body, headers: headers)
        return detector.detection()
    }
}

/// The state of one detection: the parsed body and URL, and the reasons gathered so far.
struct Detector {
    typealias Style = PaginationStyle

    let scanner: JSONScanner?
    let url: URL
    let query: [URLQueryItem]
    let headers: [String: String]
    let announced: PaginationHeaders
    var reasons: [String] = []
    var alternatives: [Style] = []
    /// The id member taken by its values alone, when no member is named like an id.
    var guessedIDField: String?

    init(url: URL, body: Data, headers: [String: String]) {
        self.url = url
        scanner = try? JSONScanner(body)
        query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        self.headers = headers
        announced = PaginationHeaders { name in
            headers.value(ignoringASCIICase: name)
        }
    }

    func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The value of a response header, by a name compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.value(ignoringASCIICase: name)
    }

    /// The members that hold an array of link objects (`{"rel": "next", "href": …}`).
    static let linkArrayKeys = ["links", "link", "_links"]

    /// The first of `names` that the URL's query carries.
    func queryParameter(_ names: [String]) -> String? { names.first { queryValue($0) != nil } }

    mutating func detection() -> Style.Detection {
        if scanner == nil { reasons.append("the body is not JSON") }
        var (style, confidence) = kindAndSignals()
        let items = itemsKeyPath()
        if style.itemsKeyPath.isEmpty { style.itemsKeyPath = items.path }
        if let note = items.reason { reasons.append(note) }
        var itemCount: Int?
        if let scanner, let array = scanner.value(at: Style.components(style.itemsKeyPath)), array.kind == .array {
            itemCount = scanner.elements(of: array).count
        }
        if itemCount == nil {
            reasons.append("no items array found; give the items path")
            confidence = .low
        }
        let (idField, itemsAreObjects) = idField(itemsKeyPath: style.itemsKeyPath)
        style.idField = idField
        style.advancing = advancing(of: style)
        if !itemsAreObjects { confidence = .low }
        for index in alternatives.indices {
            alternatives[index].itemsKeyPath = style.itemsKeyPath
            alternatives[index].idField = idField
            if alternatives[index].pageSize == nil, case .offset = alternatives[index].kind {
                alternatives[index].pageSize = itemCount
            }
        }
        if alternatives.isEmpty == false, itemCount ?? 0 == 0 { alternatives = [] }
        if let header = announced.totalHeader, let total = announced.total {
            reasons.append("the total in the \(header) header: \(total)")
        }
        var detection = Style.Detection(
            style: style, confidence: confidence, reasons: reasons, itemCount: itemCount,
            hints: pagingHints(itemCount: itemCount), alternatives: alternatives)
        detection.totalHeader = announced.totalHeader
        detection.guessedIDField = guessedIDField
        return detection
    }

    // MARK: Hints

    /// What in the response says the list pages: pagination headers, a next link, a cursor, a page
    /// or total field, a count larger than the page.
    func pagingHints(itemCount: Int?) -> [String] {
        var hints: [String] = []
        if let link = header("Link"),
            LinkHeader(link).url(rel: "next") != nil || LinkHeader(link).url(rel: "last") != nil
        {
            hints.append("a Link header")
        }
        if let next = NextLink.url(header: header), next.header != "Link" { hints.append("the \(next.header) header") }
        hints += announced.names.map { "the \($0) header" }
        if let parameter = queryParameter(Style.pageParameters + ["offset", "cursor", "after", "starting_after"]) {
            hints.append("?\(parameter)= in the URL")
        }
        guard let scanner else { return hints }
        var keys = Style.cursorKeys.map(\.key) + Style.nextURLKeys + Style.pageCountKeys + Style.totalKeys
        keys += ["has_more", "hasMore", "page", "current_page", "currentPage", "offset", "pagination", "paging"]
        keys += ["results_per_page", "page_size", "per_page", "pageInfo", "last", "isLast", "continue"]
        let nextMembers = otherNextMembers(scanner).filter { scanner.value(at: $0).map { $0.kind != .null } ?? false }
        for path in candidatePaths(keys) + nextMembers where scanner.value(at: path) != nil {
            let text = JSONKeyPath(keys: path).text
            if !hints.contains("\(text) in the body") { hints.append("\(text) in the body") }
        }
        for key in Self.linkArrayKeys where scanner.value(at: [key])?.kind == .array {
            if let text = scanner.linkURL(at: [key]), looksLikeURL(text) { hints.append("a next link in \(key)") }
        }
        if let itemCount {
            // A member already named as a total or a count is said once.
            hints += countsAbovePage(scanner, itemCount: itemCount).filter { !hints.contains("\($0.path) in the body") }
                .map(\.hint)
        }
        return hints
    }

    /// The members of the body, at its root or in its usual metadata objects, named for the next
    /// page (`nextRecordsUrl`, `next_page_uri`, `nextHref`…) beyond the usual ``PaginationStyle/nextURLKeys``,
    /// or for where a page ends or the list continues (`end`, `next_batch`, `marker`, `resumeToken`):
    /// a URL in one of them is the next page's, whatever the rest of its name; an opaque string, a cursor.
    func otherNextMembers(_ scanner: JSONScanner) -> [[String]] {
        var paths: [[String]] = []
        for (parent, object) in metadataObjects(scanner) {
            for key in scanner.keys(of: object) where Self.namesAContinuation(key) {
                if !Style.nextURLKeys.contains(key) { paths.append(parent + [key]) }
            }
        }
        return paths
    }

    /// The root object and the usual metadata objects under it (``PaginationStyle/metadataKeys``), then
    /// the objects at `nested`, each with its path: where pagination members sit beside the items.
    func metadataObjects(
        _ scanner: JSONScanner, nested: [[String]] = []
    ) -> [(path: [String], object: JSONScanner.Value)] {
        ([[]] + Style.metadataKeys.map { [$0] } + nested).compactMap { path in
            guard let object = path.isEmpty ? scanner.root : scanner.value(at: path), object.kind == .object
            else { return nil }
            return (path, object)
        }
    }

    /// The last words of member names that hold where the next page starts, beside a `next` prefix.
    static let continuationWords: Set<String> = [
        "end", "token", "cursor", "batch", "marker", "continuation", "continue", "after", "since",
    ]

    /// Whether a member's name says it holds where the list continues: it starts with `next`, or its
    /// last word (after `_`, `-`, `.` or a capital) is one of ``continuationWords``.
    static func namesAContinuation(_ key: String) -> Bool {
        if key.lowercased().hasPrefix("next") { return true }
        var lastWord = ""
        for character in key {
            if character == "_" || character == "-" || character == "." || character.isUppercase { lastWord = "" }
            if character.isLetter { lastWord.append(Character(character.lowercased())) }
        }
        return continuationWords.contains(lastWord)
    }

    /// The members of the body, at its root or in its usual metadata objects, that count more
    /// items than the page holds: named like a count or a total (`numberMatched`, `total*`,
    /// `*count*`, `*hits`), as hints that the list has more pages.
    func countsAbovePage(_ scanner: JSONScanner, itemCount: Int) -> [(path: String, hint: String)] {
        var hints: [(path: String, hint: String)] = []
        for (path, object) in metadataObjects(scanner, nested: [["meta", "pagination"], ["meta", "page"]]) {
            for key in scanner.keys(of: object) {
                let name = key.lowercased()
                guard
                    name.contains("count") || name.hasPrefix("total") || name.contains("matched")
                        || name.hasSuffix("hits"),
                    let count = scanner.member(key, of: object).flatMap(scanner.int), count > itemCount
                else { continue }
                let text = JSONKeyPath(keys: path + [key]).text
                hints.append((text, "\(text) in the body counts \(count), more than the page's \(itemCount)"))
            }
        }
        return hints
    }

    // MARK: The way pages are asked for

    /// How a next-URL or `Link` list's next URL advances, when it is this URL with one parameter
    /// advanced; said in the reasons either way. Credentials in either URL are masked first, as
    /// the tokens of such a list keep them.
    mutating func advancing(of style: Style) -> Style.Advancing? {
        guard let text = style.continuation.nextLink(in: scanner, header: header),
            let next = URL(string: text, relativeTo: url)?.absoluteURL,
            let maskedNext = URL(string: CredentialQuery.masking(next.absoluteString)),
            let maskedFirst = URL(string: CredentialQuery.masking(url.absoluteString))
        else { return nil }
        guard let advancing = Style.Advancing.learning(firstURL: maskedFirst, nextURL: maskedNext) else {
            reasons.append("the next URL is not this URL with one parameter advanced: one page after another")
            return nil
        }
        let unit = advancing.step == 1 ? "1" : "\(advancing.step)"
        reasons.append(
            "the next URL is this URL with \(advancing.parameter) advanced by \(unit): pages are named ahead "
                + "and fetched several at once")
        return advancing
    }

    /// The way pages are asked for, by the first of every way's rules (``ListContinuation/detectionRules``)
    /// that proposes one, in order of rank; page numbers when none does.
    private mutating func kindAndSignals() -> Candidate {
        let sizeParameter = queryParameter(Style.pageSizeParameters)
        var evidence = DetectionEvidence(
            sizeParameter: sizeParameter, urlPageSize: sizeParameter.flatMap(queryValue).flatMap { Int($0) },
            total: totalKeyPath())
        if let scanner {
            evidence.hasMore = firstPath(["has_more", "hasMore"]) { scanner.bool(at: $0) != nil }
            evidence.endSignal = endSignal(hasMore: evidence.hasMore)
        }
        for rule in DetectionRule.ranked {
            if let answer = rule.propose(&self, evidence) { return answer }
        }
        return pageNumbers(evidence: evidence)
    }

    /// The members of a body that give its page size, each the name of the parameter that sets it.
    static let bodySizeKeys = ["per_page", "page_size", "pageSize", "results_per_page", "size", "limit", "perPage"]

    /// The parameter a body names as its page size (`results_per_page: 50` → `results_per_page`), if any.
    func bodySizeParameter() -> String? {
        guard let scanner else { return nil }
        return firstPath(Self.bodySizeKeys) { scanner.int(at: $0) != nil }?.last
    }

    // MARK: Members of the body

    /// The body's own word on the end of the list: a `last` flag, a page count, else `has_more`.
    func endSignal(hasMore: [String]?) -> Style.EndSignal? {
        guard let scanner else { return nil }
        if let path = firstPath(["last", "is_last", "isLast", "last_page"], where: { scanner.bool(at: $0) != nil }) {
            return .isLast(keyPath: JSONKeyPath(keys: path).text)
        }
        if let path = firstPath(Style.pageCountKeys, where: { scanner.int(at: $0) != nil }) {
            return .pageCount(keyPath: JSONKeyPath(keys: path).text)
        }
        return hasMore.map { .hasMore(keyPath: JSONKeyPath(keys: $0).text) }
    }

    mutating func noteSignal(_ signal: Style.EndSignal?) {
        switch signal {
        case .pageCount(let keyPath)?: reasons.append("a page count at \(keyPath)")
        case .hasMore(let keyPath)?: reasons.append("\(keyPath), false on the last page")
        case .isLast(let keyPath)?: reasons.append("\(keyPath), true on the last page")
        case nil: break
        }
    }

    /// The list's total: a member named as one (``PaginationStyle/totalKeys``), else the first integer
    /// member at the root or in a metadata object whose name says total (`total_size`, `resultTotal`)
    /// or ends in count, and does not count pages.
    func totalKeyPath() -> String? {
        guard let scanner else { return nil }
        if let path = firstPath(Style.totalKeys, where: { scanner.int(at: $0) != nil }) {
            return JSONKeyPath(keys: path).text
        }
        for (parent, object) in metadataObjects(scanner) {
            for key in scanner.keys(of: object) {
                let name = key.lowercased()
                guard name.contains("total") || name.hasSuffix("count"), !name.contains("page"),
                    let value = scanner.member(key, of: object), value.kind == .number, scanner.int(value) != nil
                else { continue }
                return JSONKeyPath(keys: parent + [key]).text
            }
        }
        return nil
    }

    func itemsKeyPath() -> (path: String, reason: String?) {
        guard let scanner else { return ("results", nil) }
        if scanner.root.kind == .array { return ("", "the body is the items array") }
        for key in Style.itemsKeys {
            guard let value = scanner.value(at: [key]) else { continue }
            if value.kind == .array { return (key, "items under \(key)") }
            if value.kind == .object {
                for inner in Style.itemsKeys where scanner.member(inner, of: value)?.kind == .array {
                    return ("\(key).\(inner)", "items under \(key).\(inner)")
                }
            }
        }
        if scanner.root.kind == .object {
            for key in scanner.keys(of: scanner.root) {
                guard let value = scanner.value(at: [key]), value.kind == .array,
                    let first = scanner.elements(of: value).first, first.kind == .object, !scanner.isLinkArray(value)
                else { continue }
                let path = JSONKeyPath.escaping(key)
                return (path, "items under \(path), the first array of objects")
            }
            // Deeper down, the arrays of objects that are not links: the only one, else the first whose
            // objects carry a member whose values differ from one object to the next.
            let arrays = scanner.arraysOfObjects(in: scanner.root, at: [], depth: 4).filter { path in
                scanner.value(at: path).map { !scanner.isLinkArray($0) } ?? false
            }
            if arrays.count == 1, let path = arrays.first {
                let text = JSONKeyPath(keys: path).text
                return (text, "items under \(text), the only array of objects in the body that is not links")
            }
            if let path = arrays.first(where: { path in
                scanner.value(at: path).map { scanner.distinctMember(items: scanner.elements(of: $0)) != nil } ?? false
            }) {
                let text = JSONKeyPath(keys: path).text
                return (text, "items under \(text), the first array of objects whose objects differ by a member")
            }
        }
        return ("results", nil)
    }

    /// The id member of the first item, and whether the items are objects at all.
    mutating func idField(itemsKeyPath: String) -> (field: String, itemsAreObjects: Bool) {
        guard let scanner, let array = scanner.value(at: Style.components(itemsKeyPath)), array.kind == .array,
            let first = scanner.elements(of: array).first
        else { return ("id", true) }
        guard first.kind == .object else {
            reasons.append("the items are \(first.kind.rawValue)s, not objects; ask the server for objects")
            return ("id", false)
        }
        for field in Style.idFields {
            guard let value = scanner.member(field, of: first) else { continue }
            if value.kind == .number || value.kind == .string {
                reasons.append("items have \(field)")
                return (field, true)
            }
        }
        if let field = scanner.distinctIDMember(items: scanner.elements(of: array)) {
            reasons.append("items have no id; \(field), the one *id or key member whose values differ on the page")
            return (field, true)
        }
        let idLike = scanner.distinctIDMembers(items: scanner.elements(of: array))
        if idLike.count > 1 {
            reasons.append(
                "items have no id; \(idLike.joined(separator: " and ")) are named like ids and differ on the page: "
                    + "give the one that keys them (--id-field NAME)")
            return ("id", true)
        }
        if let field = scanner.distinctMember(items: scanner.elements(of: array)) {
            reasons.append("items have no id; \(field), the first member whose values differ on the page")
            guessedIDField = field
            return (field, true)
        }
        reasons.append("items have no id member (id, _id, uuid); give the id field")
        return ("id", true)
    }

    /// The paths of the keys at the root, then under the usual metadata objects, then under
    /// `meta.pagination` and `meta.page` (JSON:API servers such as DRF's).
    func candidatePaths(_ keys: [String]) -> [[String]] {
        keys.map { [$0] } + Style.metadataKeys.flatMap { meta in keys.map { [meta, $0] } }
            + [["meta", "pagination"], ["meta", "page"]].flatMap { meta in keys.map { meta + [$0] } }
    }

    func firstPath(_ keys: [String], where matches: ([String]) -> Bool) -> [String]? {
        candidatePaths(keys).first(where: matches)
    }

    func looksLikeURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || text.hasPrefix("/")
            || text.hasPrefix("?")
    }
}

extension JSONScanner {
    /// The paths of the non-empty arrays of objects under `object`, down to `depth` objects deep.
    func arraysOfObjects(in object: Value, at path: [String], depth: Int) -> [[String]] {
        guard depth > 0 else { return [] }
        var found: [[String]] = []
        for key in keys(of: object) {
            guard let value = member(key, of: object) else { continue }
            if value.kind == .array, elements(of: value).first?.kind == .object {
                found.append(path + [key])
            } else if value.kind == .object {
                found += arraysOfObjects(in: value, at: path + [key], depth: depth - 1)
            }
        }
        return found
    }

    /// The one member of the items named like an id (`*id`, `*_id`, `*Id`, `key`) whose values are
    /// strings or integers, present in every item and distinct on the page; `nil` when none or several are.
    func distinctIDMember(items: [Value]) -> String? {
        let distinct = distinctIDMembers(items: items)
        return distinct.count == 1 ? distinct.first : nil
    }

    /// Every member of the items named like an id whose values are strings or integers, present in
    /// every item and distinct on the page, in the first item's order.
    func distinctIDMembers(items: [Value]) -> [String] {
        guard let first = items.first, first.kind == .object else { return [] }
        let names = keys(of: first).filter { key in
            let name = key.lowercased()
            return name.hasSuffix("id") || name == "key"
        }
        let distinct = names.filter { name in
            var seen: Set<String> = []
            for item in items {
                guard item.kind == .object, let value = member(name, of: item),
                    value.kind == .string || value.kind == .number,
                    let text = string(value) ?? int(value).map(String.init),
                    seen.insert(text).inserted
                else { return false }
            }
            return true
        }
        return distinct
    }

    /// The member of the items that may key them when none is named like an id: present in every
    /// item, a string or an integer, distinct on the page. A URL comes first (an item's own link),
    /// then a string with no space (a name such as `@ann:example.org`, a slug), then an integer,
    /// then any other string; in each rank the first in the first item's order. `nil` when none is,
    /// or the page holds fewer than two items (nothing then shows a member distinct).
    func distinctMember(items: [Value]) -> String? {
        guard items.count > 1, let first = items.first, first.kind == .object else { return nil }
        var best: (name: String, rank: Int)?
        for name in keys(of: first) {
            var seen: Set<String> = []
            var rank = 3
            for item in items {
                guard item.kind == .object, let value = member(name, of: item) else {
                    rank = -1
                    break
                }
                let text: String
                if value.kind == .string, let string = string(value), !string.isEmpty {
                    text = string
                    let lowered = string.lowercased()
                    let isURL = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
                    rank = min(rank, isURL ? 3 : string.contains(where: \.isWhitespace) ? 0 : 2)
                } else if value.kind == .number, let number = int(value) {
                    text = String(number)
                    rank = min(rank, 1)
                } else {
                    rank = -1
                    break
                }
                guard seen.insert(text).inserted else {
                    rank = -1
                    break
                }
            }
            if rank >= 0, rank > best?.rank ?? -1 { best = (name, rank) }
        }
        return best?.name
    }
}
