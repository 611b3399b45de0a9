import Foundation
import SlippersStorage

extension Pager {
    /// A pager of an HTTP list paged with a known style: its list's key and stored style derive from the source.
    ///
    /// The list is the one the cache holds for this URL and style (under the
    /// styled key, or under the plain key `slippers sync` uses when its recorded style
    /// is this one), else a new one under the ``HTTPPageSource/styledListKey``.
    /// No request is sent before ``start()``.
    ///
    /// - parameter source: The HTTP source of the pages, with its style (and stub, if any).
    /// - parameter cache: The cache.
    /// - parameter itemType: The name items are filed under: the stored list's, else the
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
            list: try HTTPList.list(
                of: source, cache: cache, itemType: itemType,
                account: cache.account(declared: configuration.account, credentialDigest: source.credentialDigest)),
            configuration: configuration)
    }

    /// A pager of the HTTP list at `url`, paged with `style`: no request is sent before ``start()``.
    ///
    /// The list derives from the URL and the style as for ``init(http:cache:itemType:configuration:)``.
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

    /// A pager of the HTTP list at `url`, its style the one stored with its list, else detected.
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
        let (source, list) = try await HTTPList.resolve(
            url: url, client: try configuration.client(for: url), headers: configuration.headers,
            stub: configuration.stub, feedParameters: configuration.feedParameters, cache: cache,
            itemType: configuration.itemType,
            account: cache.account(
                declared: configuration.pager.account,
                credentialDigest: HTTPPageSource.credentialDigest(headers: configuration.headers, url: url)))
        return Pager<Item>(cache: cache, source: source, list: list, configuration: configuration.pager)
    }
}

/// How an app's pager of an HTTP list finds its list and its source.
enum HTTPList {
    /// The list `source` pages into: the cached one that holds its list, or a new one under the styled key.
    static func list(
        of source: HTTPPageSource, cache: SQLiteCache, itemType: String?, account: Account
    ) throws -> ListDescriptor {
        let style = try source.style.storedText()
        // The pager adds its account to the key and item type it is given.
        for key in [source.styledListKey, source.listKey] {
            if var stored = try cache.list(ListKey(parsing: key).forAccount(account).description) {
                stored.key = key
                stored.itemType = ListKey.itemType(stored.itemType, removingAccount: account)
                if source.holds(stored) {
                    return ListDescriptor(key: key, itemType: itemType ?? stored.itemType, style: style)
                }
            }
        }
        return try source.list(itemType: itemType)
    }

    /// The source and list of the list at `url`: from the style stored with its
    /// list when the cache holds it (no request), else detected from its first
    /// page, which the source then serves once instead of fetching it again.
    static func resolve(
        url: URL, client: APIClient, headers: [String: String], stub: PageStub?, feedParameters: FeedParameters?,
        cache: SQLiteCache, itemType: String?, account: Account
    ) async throws -> (source: any PageSource<RawItem>, list: ListDescriptor) {
        switch try await ListStyleResolution.resolve(
            url: url, client: client, headers: headers, stub: stub, storage: cache, account: account)
        {
        case .stored(let stored, let style):
            var source = HTTPPageSource(client: client, url: url, style: style, headers: headers)
            source.stub = stub
            source.feedParameters = feedParameters
            let list = ListDescriptor(
                key: stored.key, itemType: itemType ?? stored.itemType, style: try style.storedText())
            return (source, list)
        case .detected(var base, let firstPage, let secondPage, _):
            base.feedParameters = feedParameters
            let primed = PrimedPageSource(base: base, firstPage: firstPage, secondPage: secondPage)
            return (primed, try list(of: base, cache: cache, itemType: itemType, account: account))
        }
    }
}
