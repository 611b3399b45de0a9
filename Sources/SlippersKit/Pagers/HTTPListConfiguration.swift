import Foundation

/// How an app's list of an HTTP API sends its requests and keeps its pages: one value, with
/// documented defaults, for ``Pager``'s and ``PagedList``'s initialisers from a URL.
///
/// For example, a list of the signed-in user's posts, with a bearer token:
///
/// ```swift
/// var configuration = HTTPListConfiguration(headers: ["Authorization": "Bearer \(token)"])
/// configuration.account = Account(user.id)    // cached apart per user, whatever the token
/// let posts = PagedList<Post>(url: postsURL, cache: cache, configuration: configuration)
/// ```
public struct HTTPListConfiguration: Sendable {
    // MARK: - Requests

    /// The client that sends the requests; one for the URL's server, with the default retries,
    /// unless set. Its configuration's ``ServerConfiguration/shouldStub`` makes ``stub`` answer.
    var client: APIClient?
    /// Headers for every request, never stored nor part of the list's key; none unless set.
    public var headers: [String: String]
    /// The canned pages answered while stubbing is on, for previews and tests; none unless set.
    var stub: PageStub?
    /// The parameters that open a newest-first list at an item and page it toward newer items
    /// (``PagedList/Anchor``); learnt from the server's `Link` headers unless set, and needed
    /// for a server that sends none (a bare array, as Discord's channel messages).
    public var feedParameters: FeedParameters?

    // MARK: - Cache

    /// The name items are filed under: the cached list's, else the list's default
    /// (`posts@https://api.example.com`), unless set.
    public var itemType: String?
    /// The pager's settings: cache policy, first window, account, no-store pages, backoff.
    public var pager: PagerConfiguration

    /// Whose list this is, such as the signed-in user's id (the pager's ``PagerConfiguration/account``):
    /// `nil` unless set, and then the account the credentials of ``headers`` derive, or the
    /// anonymous account without any. Declare it when the token rotates.
    public var account: Account? {
        get { pager.account }
        set { pager.account = newValue }
    }

    /// Creates a configuration; what is not given keeps its default.
    public init(
        client: APIClient? = nil,
        headers: [String: String] = [:],
        stub: PageStub? = nil,
        itemType: String? = nil,
        pager: PagerConfiguration = PagerConfiguration()
    ) {
        self.client = client
        self.headers = headers
        self.stub = stub
        self.itemType = itemType
        self.pager = pager
    }

    /// The client for the list at `url`: the configured one, else one for the URL's server.
    ///
    /// - throws: A `NetworkError` when the URL has no host.
    func client(for url: URL) throws -> APIClient {
        guard let client = client ?? ServerConfiguration(baseURL: url).map({ APIClient(configuration: $0) }) else {
            throw NetworkError(.invalidURL(NetworkError.redacting(url)))
        }
        return client
    }
}
