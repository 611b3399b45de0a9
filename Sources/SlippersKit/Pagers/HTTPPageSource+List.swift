import Foundation
import SlippersStorage

extension HTTPPageSource {
    /// The key of the list paged with this source's style: the ``listKey`` (the URL with its
    /// query sorted and the pagination parameters left out) followed by a fingerprint of the style,
    /// as in `https://api.example.com/posts [style 5d41402a]`.
    ///
    /// Two pagers of one URL share a cache only when they page it the same way, so a
    /// misconfigured pager never reads nor overwrites the pages of a correct one.
    public var styledListKey: String {
        ListKey(listKey, styleFingerprint: style.fingerprint).description
    }

    /// The list this source pages into: the ``styledListKey``, the style as stored
    /// text, and the items filed under `itemType` (the ``defaultItemType`` unless given).
    ///
    /// - throws: `EncodingError`, which a style does not raise.
    public func list(itemType: String? = nil) throws -> ListDescriptor {
        ListDescriptor(
            key: styledListKey, itemType: itemType ?? defaultItemType, style: try style.storedText())
    }

    /// Whether the cached list `stored` holds this source's list, paged with this source's style.
    ///
    /// A list under the ``styledListKey`` does; so does one under the plain
    /// ``listKey`` (as `slippers sync` files a list) whose recorded style is this one, but for
    /// what syncs learnt of the server (``PaginationStyle/asGiven``).
    func holds(_ stored: ListInfo) -> Bool {
        if stored.key == styledListKey { return true }
        return stored.key == listKey && PaginationStyle(storedText: stored.style)?.asGiven == style.asGiven
    }
}

extension SQLiteCache {
    /// The cached lists of the list at `url`, with the style each was paged with, most recently refreshed first.
    ///
    /// A list counts when its recorded style is a ``PaginationStyle`` and the URL
    /// paged with that style gives its key: the plain key `slippers sync` uses, or the
    /// styled key of the app-facing pagers.
    ///
    /// - parameter url: The URL of the list's first page.
    /// - parameter client: The client a source of the list would use.
    /// - parameter account: The account whose lists count (``CacheStorage/account(declared:credentialDigest:)``):
    ///   each is returned with the key and item type a pager is given (the account left out),
    ///   as a pager takes them; another account's lists never count.
    /// - throws: What reading the cache throws.
    public func httpLists(
        for url: URL, client: APIClient, account: Account
    ) throws -> [(list: ListInfo, style: PaginationStyle)] {
        HTTPPageSource.lists(at: url, client: client, account: account, among: try lists())
    }
}

extension CacheStorage {
    /// The cached lists of the list at `url`, with the style each was paged with, most
    /// recently refreshed first; see ``SlippersSQLite/SQLiteCache/httpLists(for:client:account:)``.
    ///
    /// - throws: What reading the storage throws.
    public func httpLists(
        for url: URL, client: APIClient, account: Account
    ) async throws -> [(list: ListInfo, style: PaginationStyle)] {
        HTTPPageSource.lists(at: url, client: client, account: account, among: try await lists())
    }
}

extension HTTPPageSource {
    /// Those of `lists` that hold the list at `url`, with their styles, most recently refreshed first.
    static func lists(
        at url: URL, client: APIClient, account: Account, among lists: [ListInfo]
    ) -> [(list: ListInfo, style: PaginationStyle)] {
        var found: [(list: ListInfo, style: PaginationStyle)] = []
        for var list in lists {
            var key = ListKey(parsing: list.key)
            guard let style = PaginationStyle(storedText: list.style), key.account == account else {
                continue
            }
            key.account = .anonymous
            list.key = key.description
            list.itemType = ListKey.itemType(list.itemType, removingAccount: account)
            if HTTPPageSource(client: client, url: url, style: style).holds(list) {
                found.append((list, style))
            }
        }
        return found.sorted {
            ($0.list.lastFetchedAt ?? $0.list.createdAt)
                > ($1.list.lastFetchedAt ?? $1.list.createdAt)
        }
    }
}
