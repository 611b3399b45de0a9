import Foundation

extension PagedList {
    /// A list of the HTTP API at `url`, cached in `cache`: one line from a URL to a list on screen.
    ///
    /// With a `style`, the pager is made at once and its list derives from the URL and
    /// the style (see ``Pager/init(http:cache:itemType:configuration:)``).
    /// Without one, the first ``load()`` finds the style stored with the list
    /// (no request: it works offline), or detects it from the first page, which is then
    /// not fetched again.
    ///
    /// For example:
    ///
    /// ```swift
    /// @State var posts = PagedList<Post>(url: postsURL, cache: cache)
    /// ```
    ///
    /// - parameter url: The URL of the list's first page.
    /// - parameter style: How the API pages; detected (or read from the cache) unless given.
    /// - parameter cache: The cache; ``SQLiteCache/inMemory()`` for previews and tests.
    /// - parameter configuration: The client, headers and stub of the requests, the item type
    ///   and the pager's settings; the defaults of ``HTTPListConfiguration`` unless given.
    /// - parameter account: Whose list this is, such as the signed-in user's id; the
    ///   configuration's ``HTTPListConfiguration/account`` unless given (derived from the
    ///   credentials of its headers when that is `nil`, anonymous without any).
    /// - parameter around: Where the first ``load()`` opens the list: at an item (a deep link) or
    ///   where its reader stopped (``savePosition(_:)``); at its head when `nil`.
    /// - parameter distanceFromEnd: How many rows before the end the next page is asked for.
    public convenience init(
        url: URL,
        style: PaginationStyle? = nil,
        cache: SQLiteCache,
        configuration: HTTPListConfiguration = HTTPListConfiguration(),
        account: Account? = nil,
        around: Anchor? = nil,
        distanceFromEnd: Int = 5
    ) {
        let configuration =
            account.map { account in
                var configured = configuration
                configured.account = account
                return configured
            } ?? configuration
        let made: @Sendable () throws -> Pager<Item>? = {
            try style.map { style in
                try Pager<Item>(url: url, style: style, cache: cache, configuration: configuration)
            }
        }
        if let pager = try? made() {
            self.init(pager: pager, around: around, distanceFromEnd: distanceFromEnd)
        } else {
            // Detected on the first load, or the error of making it kept for then.
            self.init(around: around, distanceFromEnd: distanceFromEnd) {
                if let pager = try made() { return pager }
                return try await Pager<Item>.detecting(url: url, cache: cache, configuration: configuration)
            }
        }
        requests = (try? configuration.client(for: url)).map {
            RequestContext(client: $0, headers: configuration.headers)
        }
    }

    /// A list of the HTTP API at `url` (an absolute `http` or `https` URL), cached in `cache`.
    ///
    /// A text that is not such a URL gives a list whose ``refreshError`` says so on ``load()``.
    /// The parameters are those of ``init(url:style:cache:configuration:account:around:distanceFromEnd:)``.
    public convenience init(
        url: String,
        style: PaginationStyle? = nil,
        cache: SQLiteCache,
        configuration: HTTPListConfiguration = HTTPListConfiguration(),
        account: Account? = nil,
        around: Anchor? = nil,
        distanceFromEnd: Int = 5
    ) {
        guard let parsed = URL(string: url), parsed.host?.isEmpty == false else {
            self.init(distanceFromEnd: distanceFromEnd) {
                throw NetworkError(.invalidURL(url.shortenedForErrors))
            }
            return
        }
        self.init(
            url: parsed, style: style, cache: cache, configuration: configuration, account: account,
            around: around, distanceFromEnd: distanceFromEnd)
    }
}
