import Foundation
import SlippersStorage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the style of an HTTP list is found: the style stored with its cached list (no
/// request), else detected from its first page, which is kept so it is not fetched twice.
///
/// The one rule behind ``SyncPlan/make(storage:client:url:headers:overrides:itemType:refresh:)``,
/// ``Pager``'s `detecting(url:…)` and ``PagedList``'s lists from a URL.
enum ListStyleResolution: Sendable {
    /// The cache holds the list: its list (the account left out of its key and item type) and style.
    case stored(ListInfo, PaginationStyle)
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
    /// style is `posted`, given by the caller, and only the list of that very query or
    /// body is its own; the lists of the URL asked for by GET are never.
    static func resolve(
        url: URL, client: APIClient, headers: [String: String], stub: PageStub?, storage: any CacheStorage,
        account: Account, posted: PaginationStyle? = nil, pageTwo: HTTPPageSource.PageTwoCheck = .whenUndecided,
        adjusting adjust: @escaping @Sendable (PaginationStyle) -> PaginationStyle = { $0 }
    ) async throws -> ListStyleResolution {
        let stored = try await storage.httpLists(for: url, client: client, account: account)
        if let posted, posted.isPosted {
            if let (list, style) = stored.first(where: { posted.postsLike($0.style) }) {
                return .stored(list, style)
            }
        } else if let (list, style) = stored.first(where: { !$0.style.isPosted }) {
            return .stored(list, style)
        }
        let found = try await HTTPPageSource.detect(
            client: client, url: url, headers: headers, stub: stub, posted: posted, pageTwo: pageTwo, adjusting: adjust)
        return .detected(
            found.source, firstPage: found.firstPage, secondPage: found.secondPage, detection: found.detection)
    }
}
