import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the style of an HTTP list is found: the style stored with its cached collection (no
/// request), else detected from its first page, which is kept so it is not fetched twice.
///
/// The one rule behind ``SyncPlan/make(store:client:url:headers:overrides:itemType:refresh:)``,
/// ``ListPager``'s `detecting(url:…)` and ``PagedList``'s lists from a URL.
enum ListStyleResolution: Sendable {
    /// The cache holds the list: its collection (the partition left out of its key and item type) and style.
    case stored(CollectionInfo, PaginationStyle)
    /// The cache does not: the source of the detected style (with any adjustment), the first page
    /// read under it (`nil` when the adjusted style asks for it at another URL), and the detection.
    case detected(HTTPPageSource, firstPage: Page<RawItem>?, detection: PaginationStyle.Detection)

    /// Finds the style of the list at `url`.
    ///
    /// - parameter adjust: What the caller knows better than detection (a page size, the items
    ///   path…), applied to a detected style.
    /// - throws: What reading the store throws; a `NetworkError` when the first page, needed
    ///   to detect the style, cannot be fetched or read.
    static func resolve(
        url: URL, client: HTTPClient, headers: [String: String], stub: PageStub?, store: CacheStore,
        partition: String?, adjusting adjust: @escaping @Sendable (PaginationStyle) -> PaginationStyle = { $0 }
    ) async throws -> ListStyleResolution {
        if let (stored, style) = try store.httpCollections(for: url, client: client, partition: partition).first {
            return .stored(stored, style)
        }
        let detected = try await HTTPPageSource.explainedDetecting(
            client: client, url: url, headers: headers, stub: stub, adjusting: adjust)
        return .detected(detected.source, firstPage: detected.firstPage, detection: detected.detection)
    }
}
