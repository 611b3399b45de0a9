import Foundation

extension PagedList {
    /// A list of the HTTP API at `url`, cached in `store`: one line from a URL to a list on screen.
    ///
    /// With a `style`, the pager is made at once and its collection derives from the URL and
    /// the style (see ``CachedPager/init(http:store:itemType:policy:initialWindow:partition:keepsNoStorePages:)``).
    /// Without one, the first ``load()`` finds the style stored with the list's collection
    /// (no request: it works offline), or detects it from the first page, which is then
    /// not fetched again.
    ///
    /// - parameter url: The URL of the list's first page.
    /// - parameter style: How the API pages; detected (or read from the cache) unless given.
    /// - parameter client: The client that sends the requests; one for the URL's server, with
    ///   the default retries, unless given. Its configuration's ``ServerConfiguration/shouldStub``
    ///   makes `stub` answer instead of the network.
    /// - parameter headers: Headers for every request, never stored nor part of the key.
    /// - parameter stub: The canned pages answered while stubbing is on, for previews and tests.
    /// - parameter store: The cache; ``CacheStore/inMemory()`` for previews and tests.
    /// - parameter itemType: The name items are filed under; the list's default
    ///   (`posts@https://api.example.com`) unless given.
    /// - parameter policy: How the cache and the network are weighed.
    /// - parameter partition: Who the pages are for, when the responses depend on it.
    /// - parameter distanceFromEnd: How many rows before the end the next page is asked for.
    public convenience init(
        url: URL,
        style: PaginationStyle? = nil,
        client: HTTPClient? = nil,
        headers: [String: String] = [:],
        stub: PageStub? = nil,
        in store: CacheStore,
        itemType: String? = nil,
        policy: CachePolicy = .cacheThenNetwork,
        partition: String? = nil,
        distanceFromEnd: Int = 5
    ) {
        let made: @Sendable () throws -> ListPager<Item>? = {
            try style.map { style in
                try ListPager<Item>(
                    url: url, style: style, client: client, headers: headers, stub: stub, store: store,
                    itemType: itemType, policy: policy, partition: partition)
            }
        }
        if let pager = try? made() {
            self.init(pager: pager, distanceFromEnd: distanceFromEnd)
            return
        }
        // Detected on the first load, or the error of making it kept for then.
        self.init(distanceFromEnd: distanceFromEnd) {
            if let pager = try made() { return pager }
            return try await ListPager<Item>.detecting(
                url: url, client: client, headers: headers, stub: stub, store: store, itemType: itemType,
                policy: policy, partition: partition)
        }
    }

    /// A list of the HTTP API at `url` (an absolute `http` or `https` URL), cached in `store`.
    ///
    /// A text that is not such a URL gives a list whose ``refreshError`` says so on ``load()``.
    /// The parameters are those of ``init(url:style:client:headers:stub:in:itemType:policy:partition:distanceFromEnd:)``.
    public convenience init(
        url: String,
        style: PaginationStyle? = nil,
        client: HTTPClient? = nil,
        headers: [String: String] = [:],
        stub: PageStub? = nil,
        in store: CacheStore,
        itemType: String? = nil,
        policy: CachePolicy = .cacheThenNetwork,
        partition: String? = nil,
        distanceFromEnd: Int = 5
    ) {
        guard let parsed = URL(string: url), parsed.host?.isEmpty == false else {
            self.init(distanceFromEnd: distanceFromEnd) {
                throw NetworkError(.invalidURL(url.shortenedForErrors))
            }
            return
        }
        self.init(
            url: parsed, style: style, client: client, headers: headers, stub: stub, in: store, itemType: itemType,
            policy: policy, partition: partition, distanceFromEnd: distanceFromEnd)
    }
}
