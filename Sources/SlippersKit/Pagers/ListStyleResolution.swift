import Foundation
import SlippersStorage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the style of an HTTP list is found: the style stored with its cached collection (no
/// request), else detected from its first page, which is kept so it is not fetched twice.
///
/// The one rule behind ``SyncPlan/make(storage:client:url:headers:overrides:itemType:refresh:)``,
/// ``Pager``'s `detecting(url:…)` and ``PagedList``'s lists from a URL.
enum ListStyleResolution: Sendable {
    /// The cache holds the list: its collection (the account left out of its key and item type) and style.
    case stored(CollectionInfo, PaginationStyle)
    /// The cache does not: the source of the detected style (with any adjustment), the first page
    /// read under it (`nil` when the adjusted style asks for it at another URL), the second page when
    /// detection had to ask for it to tell two styles apart, and the detection.
    case detected(
        HTTPPageSource, firstPage: Page<RawItem>?, secondPage: Page<RawItem>?, detection: PaginationStyle.Detection)

    /// Finds the style of the list at `url`.
    ///
    /// - parameter pageTwo: Which detected lists have page 2 asked for now, to check the style: a
    ///   sync checks every inferred way of asking, a pager only a way the first page leaves undecided.
    /// - parameter adjust: What the caller knows better than detection (a page size, the items
    ///   path…), applied to a detected style.
    /// - throws: What reading the storage throws; a `NetworkError` when the first page, needed
    ///   to detect the style, cannot be fetched or read.
    ///
    /// A list asked for by POST (``PaginationStyle/isPosted``) cannot be detected by a GET: its
    /// style is `posted`, given by the caller, and only the collection of that very query or
    /// body is its own; the lists of the URL asked for by GET are never.
    static func resolve(
        url: URL, client: APIClient, headers: [String: String], stub: PageStub?, storage: any CacheStorage,
        account: Account, posted: PaginationStyle? = nil, pageTwo: HTTPPageSource.PageTwoCheck = .whenUndecided,
        adjusting adjust: @escaping @Sendable (PaginationStyle) -> PaginationStyle = { $0 }
    ) async throws -> ListStyleResolution {
        let stored = try await storage.httpCollections(for: url, client: client, account: account)
        if let posted, posted.isPosted {
            var source = HTTPPageSource(client: client, url: url, style: posted, headers: headers)
            source.stub = stub
            if let (collection, style) = stored.first(where: { posted.postsLike($0.style) }) {
                return .stored(collection, style)
            }
            var firstPage: Page<RawItem>?
            // A list paged by variables is found, or its total beside it, in its first response.
            if case .graphQL(let connection) = posted.kind,
                connection.connectionPath.isEmpty || (connection.paging != .cursor && posted.totalKeyPath == nil)
            {
                if let (found, page) = try await source.detectingConnection() {
                    (source, firstPage) = (found, page)
                } else if connection.connectionPath.isEmpty {
                    let reason =
                        connection.paging == .cursor
                        ? "no Relay connection (an object with edges or nodes and pageInfo) in the "
                            + "response; ask for pageInfo { hasNextPage endCursor }, or give the connection's path"
                        : "no list (an array of objects) in the response; check the query's selection, "
                            + "or give the list's path"
                    throw NetworkError(
                        .decoding(path: "data", reason: reason, bodySnippet: ""), url: url, method: "POST")
                }
            }
            // A body paged by a number: its total (and items) are found in its first response.
            if case .bodyCursor(let cursor) = posted.kind, cursor.isNumbered, posted.totalKeyPath == nil,
                let (found, page, _) = try await source.detectingNumberedBody()
            {
                (source, firstPage) = (found, page)
            }
            let detection = PaginationStyle.Detection(
                style: source.style, confidence: .high, reasons: ["given by the caller: asked for by POST"],
                itemCount: firstPage?.items.count)
            return .detected(source, firstPage: firstPage, secondPage: nil, detection: detection)
        }
        if let (collection, style) = stored.first(where: { !$0.style.isPosted }) {
            return .stored(collection, style)
        }
        let detected = try await HTTPPageSource.probedDetecting(
            client: client, url: url, headers: headers, stub: stub, check: pageTwo, adjusting: adjust)
        return .detected(
            detected.source, firstPage: detected.firstPage, secondPage: detected.secondPage,
            detection: detected.detection)
    }
}
