import Foundation
import Slippers

// The values a backend of ``CacheStorage`` returns, made from its rows. For backends in other
// modules (`import SlippersStore` with `@_spi(Backends)`); apps read these values, never make them.

extension CollectionHead {
    /// Makes a head from a collection's row and where its current generation ends.
    @_spi(Backends)
    public static func fromBackend(
        key: String, resumeToken: PageToken?, endReached: Bool, total: Int?, refreshedAt: Date?,
        invalidatedAt: Date?, generation: Int, currentPageCount: Int, cachedPageCount: Int,
        repeatedItemCount: Int = 0
    ) -> Self {
        Self(
            key: key, resumeToken: resumeToken, endReached: endReached, total: total, refreshedAt: refreshedAt,
            invalidatedAt: invalidatedAt, generation: generation, currentPageCount: currentPageCount,
            cachedPageCount: cachedPageCount, repeatedItemCount: repeatedItemCount)
    }
}

extension CollectionInfo {
    /// Makes a collection's description from its head and statistics.
    @_spi(Backends)
    public static func fromBackend(
        head: CollectionHead, itemType: String, style: String?, createdAt: Date, pageCount: Int,
        stalePageCount: Int, itemCount: Int, lastFetchedAt: Date?, unverifiedPageCount: Int
    ) -> Self {
        Self(
            head: head, itemType: itemType, style: style, createdAt: createdAt, pageCount: pageCount,
            stalePageCount: stalePageCount, itemCount: itemCount, lastFetchedAt: lastFetchedAt,
            unverifiedPageCount: unverifiedPageCount)
    }
}

extension PageInfo {
    /// Makes a page's row.
    @_spi(Backends)
    public static func fromBackend(
        index: Int, generation: Int, token: PageToken?, nextToken: PageToken?, validators: PageValidators,
        fetchedAt: Date, itemCount: Int, isStale: Bool, verifiedAt: Date?, digest: String?,
        lifetime: TimeInterval?, requiresRevalidation: Bool, staleWhileRevalidate: TimeInterval?,
        staleIfError: TimeInterval?, vary: [String], varyKey: String?, isUnverified: Bool
    ) -> Self {
        Self(
            index: index, generation: generation, token: token, nextToken: nextToken, validators: validators,
            fetchedAt: fetchedAt, itemCount: itemCount, isStale: isStale, verifiedAt: verifiedAt, digest: digest,
            lifetime: lifetime, requiresRevalidation: requiresRevalidation, staleWhileRevalidate: staleWhileRevalidate,
            staleIfError: staleIfError, vary: vary, varyKey: varyKey, isUnverified: isUnverified)
    }
}

extension StoredPage {
    /// Makes a page with its items.
    @_spi(Backends)
    public static func fromBackend(info: PageInfo, items: [RawItem], editedKeys: Set<ItemKey> = []) -> Self {
        Self(info: info, items: items, editedKeys: editedKeys)
    }
}

extension StoredItem {
    /// Makes a stored item.
    @_spi(Backends)
    public static func fromBackend(type: String, item: RawItem, updatedAt: Date) -> Self {
        Self(type: type, item: item, updatedAt: updatedAt)
    }
}

extension StoreStats {
    /// Makes the figures of a cache; `fileSize` is the database's size on disk.
    @_spi(Backends)
    public static func fromBackend(
        path: String, fileSize: Int64, collections: Int, pages: Int, items: Int, unreferencedItems: Int,
        itemBytes: Int64, oldestPage: Date?, newestPage: Date?, schemaVersion: String?
    ) -> Self {
        Self(
            path: path, fileSize: fileSize, collections: collections, pages: pages, items: items,
            unreferencedItems: unreferencedItems, itemBytes: itemBytes, oldestPage: oldestPage, newestPage: newestPage,
            schemaVersion: schemaVersion)
    }
}

extension Diagnosis {
    /// Makes a diagnosis.
    @_spi(Backends)
    public static func fromBackend(
        integrity: [String], appliedMigrations: [String], knownMigrations: [String], orphans: [String],
        inconsistentPages: [String]
    ) -> Self {
        Self(
            integrity: integrity, appliedMigrations: appliedMigrations, knownMigrations: knownMigrations,
            orphans: orphans, inconsistentPages: inconsistentPages)
    }
}
