import Foundation
import SlippersStorage

extension Pager {
    /// A pager of an HTTP list paged with a known style: its collection's key and stored style derive from the source.
    ///
    /// The collection is the one the cache holds for this URL and style (under the
    /// styled key, or under the plain key `slippers sync` uses when its recorded style
    /// is this one), else a new one under the ``HTTPPageSource/styledCollectionKey``.
    /// No request is sent before ``start()``.
    ///
    /// - parameter source: The HTTP source of the pages, with its style (and stub, if any).
    /// - parameter cache: The cache.
    /// - parameter itemType: The name items are filed under: the stored collection's, else the
    ///   source's ``HTTPPageSource/defaultItemType`` (`posts@https://api.example.com`), unless given.
    /// - parameter configuration: The pager's settings.
    /// - throws: What reading the cache throws.
    public init(
        http source: HTTPPageSource,
        cache: SQLiteCache,
        itemType: String? = nil,
        configuration: PagerConfiguration = PagerConfiguration()
    ) throws {
        self.init(
            cache: cache, source: source,
            collection: try HTTPList.collection(
                of: source, cache: cache, itemType: itemType,
                account: cache.account(declared: configuration.account, credentialDigest: source.credentialDigest)),
            configuration: configuration)
    }

    /// A pager of the HTTP list at `url`, paged with `style`: no request is sent before ``start()``.
    ///
    /// The collection derives from the URL and the style as for ``init(http:cache:itemType:configuration:)``.
    ///
    /// For example:
    ///
    /// ```swift
    /// let pager = try Pager<Post>(url: postsURL, style: .linkHeader(pageSize: 100), cache: cache)
    /// ```
    ///
    /// - parameter url: The URL of the list's first page.
    /// - parameter style: How the API pages.
    /// - parameter cache: The cache.
    /// - parameter configuration: The client, headers and stub of the requests, the item type and the pager's settings.
    /// - throws: A `NetworkError` when the URL has no host; what reading the cache throws.
    public init(
        url: URL,
        style: PaginationStyle,
        cache: SQLiteCache,
        configuration: HTTPListConfiguration = HTTPListConfiguration()
    ) throws {
        var source = HTTPPageSource(
            client: try configuration.client(for: url), url: url, style: style, headers: configuration.headers)
        source.stub = configuration.stub
        source.feedParameters = configuration.feedParameters
        try self.init(http: source, cache: cache, itemType: configuration.itemType, configuration: configuration.pager)
    }

    /// A pager of the HTTP list at `url`, its style the one stored with its collection, else detected.
    ///
    /// When the cache holds the list, the pager is rebuilt from the style stored with
    /// it, with no request: it works offline. Otherwise the first page is fetched to
    /// detect the style, and the pager's first load uses that page instead of
    /// fetching it again.
    ///
    /// - parameter url: The URL of the list's first page.
    /// - parameter cache: The cache.
    /// - parameter configuration: The client, headers and stub of the requests, the item type and the pager's settings.
    /// - throws: A `NetworkError` when the URL has no host, or when the list is not cached and its
    ///   first page cannot be fetched or read; what reading the cache throws.
    public static func detecting(
        url: URL,
        cache: SQLiteCache,
        configuration: HTTPListConfiguration = HTTPListConfiguration()
    ) async throws -> Pager<Item> {
        let (source, collection) = try await HTTPList.resolve(
            url: url, client: try configuration.client(for: url), headers: configuration.headers,
            stub: configuration.stub, feedParameters: configuration.feedParameters, cache: cache,
            itemType: configuration.itemType,
            account: cache.account(
                declared: configuration.pager.account,
                credentialDigest: HTTPPageSource.credentialDigest(headers: configuration.headers, url: url)))
        return Pager<Item>(cache: cache, source: source, collection: collection, configuration: configuration.pager)
    }
}

/// How an app's pager of an HTTP list finds its collection and its source.
enum HTTPList {
    /// The collection `source` pages into: the cached one that holds its list, or a new one under the styled key.
    static func collection(
        of source: HTTPPageSource, cache: SQLiteCache, itemType: String?, account: Account
    ) throws -> CollectionDescriptor {
        let style = try source.style.storedText()
        // The pager adds its account to the key and item type it is given.
        for key in [source.styledCollectionKey, source.collectionKey] {
            if var stored = try cache.collection(CollectionKey(parsing: key).forAccount(account).description) {
                stored.key = key
                stored.itemType = CollectionKey.itemType(stored.itemType, removingAccount: account)
                if source.holds(stored) {
                    return CollectionDescriptor(key: key, itemType: itemType ?? stored.itemType, style: style)
                }
            }
        }
        return try source.collection(itemType: itemType)
    }

    /// The source and collection of the list at `url`: from the style stored with its
    /// collection when the cache holds it (no request), else detected from its first
    /// page, which the source then serves once instead of fetching it again.
    static func resolve(
        url: URL, client: APIClient, headers: [String: String], stub: PageStub?, feedParameters: FeedParameters?,
        cache: SQLiteCache, itemType: String?, account: Account
    ) async throws -> (source: any PageSource<RawItem>, collection: CollectionDescriptor) {
        switch try await ListStyleResolution.resolve(
            url: url, client: client, headers: headers, stub: stub, storage: cache, account: account)
        {
        case .stored(let stored, let style):
            var source = HTTPPageSource(client: client, url: url, style: style, headers: headers)
            source.stub = stub
            source.feedParameters = feedParameters
            let collection = CollectionDescriptor(
                key: stored.key, itemType: itemType ?? stored.itemType, style: try style.storedText())
            return (source, collection)
        case .detected(var base, let firstPage, let secondPage, _):
            base.feedParameters = feedParameters
            let primed = PrimedPageSource(base: base, firstPage: firstPage, secondPage: secondPage)
            return (primed, try collection(of: base, cache: cache, itemType: itemType, account: account))
        }
    }
}
