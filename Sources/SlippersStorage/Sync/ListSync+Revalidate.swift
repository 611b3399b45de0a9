import Foundation
import Slippers

extension ListSync {
    /// What a revalidating walk found, page by page.
    public struct Revalidation: Hashable, Sendable {
        /// The pages the source confirmed: a `304`, or the same items by digest. Nothing was rewritten.
        public var unchanged = 0
        /// The cached pages that held other items: they were rewritten.
        public var changed = 0
        /// The pages that were not cached: they were saved.
        public var new = 0
        /// The cached pages past the list's new end: they were removed.
        public var removed = 0
        /// The number of items on the pages that were changed or new.
        public var itemsWritten = 0
        /// Whether the walk reached the end of the list.
        public var endReached = false

        /// The number of pages walked (one request each).
        public var pagesWalked: Int { unchanged + changed + new }
    }

    /// Walks the list from its first page, revalidating each cached page and rewriting only those that changed.
    ///
    /// Each page is asked for with its cached validators (`If-None-Match`,
    /// `If-Modified-Since`); a `304` or a `200` with the same items (by digest,
    /// for servers without validators) only records the verification. A
    /// changed page is rewritten in one transaction, a page not cached yet is
    /// saved, and when the list now ends earlier the cached pages past its end
    /// are removed. An unchanged first page starts no new generation.
    ///
    /// For example:
    ///
    /// ```swift
    /// let found = try await sync.revalidate()
    /// print("\(found.unchanged) unchanged, \(found.changed) changed, \(found.new) new, \(found.removed) removed")
    /// ```
    ///
    /// - parameter maxPages: The most pages to walk; no limit when `nil`.
    /// - parameter onPage: Called after each page.
    /// - returns: What the walk found.
    /// - throws: The source's error, `CacheError.tokenDidNotAdvance(list:token:)`,
    ///   `NoStorePageError`, a cache error, or `CancellationError`. Pages revalidated before the
    ///   error stay so.
    @discardableResult
    public func revalidate(
        maxPages: Int? = nil,
        onPage: (Revalidation) -> Void = { _ in }
    ) async throws -> Revalidation {
        try await tracingList(
            "revalidate", counting: { ($0.pagesWalked, $0.itemsWritten) },
            running: {
                try await revalidateTraced(maxPages: maxPages, onPage: onPage)
            })
    }

    private func revalidateTraced(maxPages: Int?, onPage: (Revalidation) -> Void) async throws -> Revalidation {
        let store = storage
        let pagesBefore = try await store.list(list.key)?.pageCount ?? 0
        var found = Revalidation()
        var index = 0
        var token: PageToken?
        var seen: Set<PageToken> = []
        var previousKeys: [ItemKey] = []
        // As a sync does: a total (or a page count) says where the list ends, whatever the last page's next token.
        let addressable = source as? any AddressablePageSource
        var pageItemCount: Int?
        var pageCount: Int?
        while maxPages.map({ found.pagesWalked < $0 }) ?? true {
            try Task.checkCancellation()
            let cached = try await store.pageInfo(at: index, in: list.key)
            let validators = cached.flatMap { $0.token == token && !$0.validators.isEmpty ? $0.validators : nil }
            let result = try await tracingPage(at: index) {
                try await source.fetch(PageRequest(token: token, validators: validators))
            }
            try Task.checkCancellation()
            let next: PageToken?
            switch result {
            case .notModified(let latest):
                try await store.markPageNotModified(at: index, in: list.key, validators: latest)
                found.unchanged += 1
                next = cached?.nextToken
            case .page(var page):
                if page.items.isEmpty && index > 0 { page.nextToken = nil }
                let keys = page.items.map(\.key)
                if !keys.isEmpty, keys == previousKeys {
                    throw CacheError.pageRepeated(list: list.key, index: index)
                }
                previousKeys = keys
                if let addressable, page.nextToken != nil {
                    if pageItemCount == nil, !page.items.isEmpty { pageItemCount = page.items.count }
                    if let announced = page.pageCount {
                        pageCount = announced
                    } else if let total = page.total, let pageItemCount {
                        pageCount = addressable.pageCount(forTotal: total, pageItemCount: pageItemCount)
                    }
                    if let pageCount, index + 1 >= pageCount { page.nextToken = nil }
                }
                if let following = page.nextToken, following == token || !seen.insert(following).inserted {
                    throw CacheError.tokenDidNotAdvance(list: list.key, token: following.rawValue)
                }
                if page.caching.cacheControl.noStore, !keepsNoStorePages {
                    throw NoStorePageError(list: list.key, index: index)
                }
                let save = try await store.savePageIfChanged(page, at: index, in: list)
                switch save.outcome {
                case .unchanged: found.unchanged += 1
                case .changed: found.changed += 1
                case .new: found.new += 1
                }
                if save.outcome != .unchanged { found.itemsWritten += page.items.count }
                next = page.nextToken
            }
            guard let next else {
                found.endReached = true
                found.removed = max(0, pagesBefore - (index + 1))
                onPage(found)
                break
            }
            onPage(found)
            token = next
            index += 1
        }
        return found
    }
}
