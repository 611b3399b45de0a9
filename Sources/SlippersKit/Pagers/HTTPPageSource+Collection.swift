import Foundation
import SlippersStorage

extension HTTPPageSource {
    /// The key of the list paged with this source's style: the ``collectionKey`` (the URL with its
    /// query sorted and the pagination parameters left out) followed by a fingerprint of the style,
    /// as in `https://api.example.com/posts [style 5d41402a]`.
    ///
    /// Two pagers of one URL share a cache only when they page it the same way, so a
    /// misconfigured pager never reads nor overwrites the pages of a correct one.
    public var styledCollectionKey: String {
        CollectionKey(collectionKey, styleFingerprint: style.fingerprint).description
    }

    /// The collection this source pages into: the ``styledCollectionKey``, the style as stored
    /// text, and the items filed under `itemType` (the ``defaultItemType`` unless given).
    ///
    /// - throws: `EncodingError`, which a style does not raise.
    public func collection(itemType: String? = nil) throws -> CollectionDescriptor {
        CollectionDescriptor(
            key: styledCollectionKey, itemType: itemType ?? defaultItemType, style: try style.storedText())
    }

    /// Whether the cached collection `stored` holds this source's list, paged with this source's style.
    ///
    /// A collection under the ``styledCollectionKey`` does; so does one under the plain
    /// ``collectionKey`` (as `slippers sync` files a list) whose recorded style is this one, but for
    /// what syncs learnt of the server (``PaginationStyle/asGiven``).
    public func holds(_ stored: CollectionInfo) -> Bool {
        if stored.key == styledCollectionKey { return true }
        return stored.key == collectionKey && PaginationStyle(storedText: stored.style)?.asGiven == style.asGiven
    }
}

extension SQLiteCache {
    /// The cached collections of the list at `url`, with the style each was paged with, most recently refreshed first.
    ///
    /// A collection counts when its recorded style is a ``PaginationStyle`` and the URL
    /// paged with that style gives its key: the plain key `slippers sync` uses, or the
    /// styled key of the app-facing pagers.
    ///
    /// - parameter url: The URL of the list's first page.
    /// - parameter client: The client a source of the list would use.
    /// - parameter account: The account whose lists count (``CacheStorage/account(declared:credentialDigest:)``):
    ///   each is returned with the key and item type a pager is given (the account left out),
    ///   as a pager takes them; another account's lists never count.
    /// - throws: What reading the cache throws.
    public func httpCollections(
        for url: URL, client: APIClient, account: Account
    ) throws -> [(collection: CollectionInfo, style: PaginationStyle)] {
        HTTPPageSource.lists(at: url, client: client, account: account, among: try collections())
    }
}

extension CacheStorage {
    /// The cached collections of the list at `url`, with the style each was paged with, most
    /// recently refreshed first; see ``SlippersSQLite/SQLiteCache/httpCollections(for:client:account:)``.
    ///
    /// - throws: What reading the storage throws.
    public func httpCollections(
        for url: URL, client: APIClient, account: Account
    ) async throws -> [(collection: CollectionInfo, style: PaginationStyle)] {
        HTTPPageSource.lists(at: url, client: client, account: account, among: try await collections())
    }
}

extension HTTPPageSource {
    /// Those of `collections` that hold the list at `url`, with their styles, most recently refreshed first.
    static func lists(
        at url: URL, client: APIClient, account: Account, among collections: [CollectionInfo]
    ) -> [(collection: CollectionInfo, style: PaginationStyle)] {
        var found: [(collection: CollectionInfo, style: PaginationStyle)] = []
        for var collection in collections {
            var key = CollectionKey(parsing: collection.key)
            guard let style = PaginationStyle(storedText: collection.style), key.account == account else {
                continue
            }
            key.account = .anonymous
            collection.key = key.description
            collection.itemType = CollectionKey.itemType(collection.itemType, removingAccount: account)
            if HTTPPageSource(client: client, url: url, style: style).holds(collection) {
                found.append((collection, style))
            }
        }
        return found.sorted {
            ($0.collection.lastFetchedAt ?? $0.collection.createdAt)
                > ($1.collection.lastFetchedAt ?? $1.collection.createdAt)
        }
    }
}
