import Foundation
import Slippers
import SlippersNetworking
import SlippersStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a sync files its pages and how it asks for them: the collection, its style, the source.
///
/// A URL whose collection the cache already holds is paged with the style
/// stored with it, so a resumed sync sends no request for the pages it has.
/// A new one is detected from its first page, which is then saved as fetched.
struct SyncPlan {
    /// The source of the pages.
    var source: PrimedPageSource
    /// The collection the pages are filed under; its style is the source's, as JSON. Headers are never part of it.
    var collection: CollectionDescriptor
    /// The collection as the cache held it before the run, if it did.
    var stored: CollectionInfo?

    /// The pagination style being used.
    var style: PaginationStyle { source.base.style }

    /// Plans the sync of the list at `url`.
    ///
    /// - throws: ``CommandFailure/styleConflict(collection:stored:requested:)`` when a
    ///   stored collection would be resumed with another style; a `NetworkError`
    ///   when the first page, needed to detect the style, cannot be fetched or read.
    static func make(
        store: CacheStore,
        client: HTTPClient,
        url: URL,
        headers: [String: String],
        overrides: StyleOverrides,
        itemType: String?,
        refresh: Bool
    ) async throws -> SyncPlan {
        if let (stored, storedStyle) = try storedCollection(for: url, in: store, client: client) {
            if let requested = overrides.style, StyleOption(storedStyle.kind) != requested, !refresh {
                throw CommandFailure.styleConflict(
                    collection: stored.key, stored: StyleOption(storedStyle.kind).rawValue,
                    requested: requested.rawValue)
            }
            let style = overrides.applied(to: storedStyle)
            let base = HTTPPageSource(client: client, url: url, style: style, headers: headers)
            return SyncPlan(
                source: PrimedPageSource(base: base, firstPage: nil),
                collection: CollectionDescriptor(key: stored.key, itemType: stored.itemType, style: try encode(style)),
                stored: stored)
        }
        let source = try await detectedSource(client: client, url: url, headers: headers, overrides: overrides)
        let key = source.base.collectionKey
        return SyncPlan(
            source: source,
            collection: CollectionDescriptor(
                key: key, itemType: itemType ?? source.base.defaultItemType, style: try encode(source.base.style)),
            stored: try store.collection(key))
    }

    /// A source for a list the cache does not hold, its style detected from the first page.
    ///
    /// Without overrides the detecting request's page is kept, so the first
    /// page is fetched once. With overrides the first response may not read
    /// under the detected style (items under a key detection does not know),
    /// so the style is detected from the raw response, the overrides applied,
    /// and the first page fetched again with the resulting style.
    private static func detectedSource(
        client: HTTPClient, url: URL, headers: [String: String], overrides: StyleOverrides
    ) async throws -> PrimedPageSource {
        if overrides == StyleOverrides() {
            let (source, firstPage) = try await HTTPPageSource.detecting(client: client, url: url, headers: headers)
            return PrimedPageSource(base: source, firstPage: firstPage)
        }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let response = try await client.send(request, home: Origin(url)) { response in
            do {
                _ = try JSONScanner(response.body)
            } catch {
                throw NetworkError(decoding: error, body: response.body, url: url)
            }
            return response
        }
        let detected = PaginationStyle.detect(url: url, body: response.body, headers: response.headers)
        let style = overrides.applied(to: detected)
        return PrimedPageSource(
            base: HTTPPageSource(client: client, url: url, style: style, headers: headers), firstPage: nil)
    }

    /// The cached collection that `url` pages into under its stored style, with that style.
    private static func storedCollection(
        for url: URL, in store: CacheStore, client: HTTPClient
    ) throws -> (CollectionInfo, PaginationStyle)? {
        let decoder = JSONDecoder()
        for collection in try store.collections() {
            guard let text = collection.style,
                let style = try? decoder.decode(PaginationStyle.self, from: Data(text.utf8))
            else { continue }
            if HTTPPageSource(client: client, url: url, style: style).collectionKey == collection.key {
                return (collection, style)
            }
        }
        return nil
    }

    /// The style as the collection records it: JSON with sorted keys.
    static func encode(_ style: PaginationStyle) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(style), as: UTF8.self)
    }
}
