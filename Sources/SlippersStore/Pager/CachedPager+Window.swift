import Foundation
import Slippers

/// The window: the pages the pager publishes, a prefix of the cached list.
///
/// The window is read through each page's key and published from memory, so
/// a snapshot costs what the window holds, never what the whole cache holds.
extension CachedPager {
    /// Reads the first `pageCount` cached pages into the window (fewer when fewer are cached).
    func readWindow(pageCount: Int) throws {
        let window = try store.window(collection.key, pages: 0..<pageCount)
        windowPages = window?.pages ?? []
        windowHead = window?.head
    }

    /// Grows the window by the cached page after it, when there is one.
    func appendCachedPageToWindow() throws {
        let index = windowPages.count
        guard let window = try store.window(collection.key, pages: index..<index + 1),
            let page = window.pages.first
        else { return }
        if let windowHead, window.head.generation == windowHead.generation {
            windowPages.append(page)
            self.windowHead = window.head
        } else {
            // A refresh, here or in another process, started a generation since the window was read:
            // the staleness of every page read earlier changed with it.
            try readWindow(pageCount: index + 1)
        }
    }

    /// Puts the page just saved at `index` into the window without reading the window's other pages again.
    ///
    /// The store keeps one row per item, so the saved page's JSON is every
    /// copy's: an item it shares with an earlier page of the window takes it
    /// there too. The whole window is read again instead when a generation
    /// started meanwhile (here or in another process), when the save ended the
    /// list (it removed the pages after it), or when `index` is past the window.
    func placeSavedPage(at index: Int) throws {
        guard index <= windowPages.count, let windowHead,
            let window = try store.window(collection.key, pages: index..<index + 1),
            let page = window.pages.first,
            window.head.generation == windowHead.generation, !window.head.endReached
        else {
            try readWindow(pageCount: max(windowPages.count, index + 1))
            return
        }
        var latest: [ItemKey: Data] = [:]
        for item in page.items { latest[item.key] = item.json }
        for pageIndex in windowPages.indices {
            for itemIndex in windowPages[pageIndex].items.indices {
                if let json = latest[windowPages[pageIndex].items[itemIndex].key] {
                    windowPages[pageIndex].items[itemIndex].json = json
                }
            }
        }
        if index == windowPages.count {
            windowPages.append(page)
        } else {
            windowPages[index] = page
        }
        self.windowHead = window.head
    }

    /// The pages of the window that are published: all of them, or the current ones when the cache is not read.
    private var publishedPages: ArraySlice<StoredPage> {
        policy.readsCache ? windowPages[...] : windowPages.prefix { !$0.info.isStale }
    }

    /// Publishes the window: its pages, their items (each id once, its first occurrence wins) and its head.
    func publishWindow(origin: Origin) throws {
        guard windowHead != nil else {
            publish()
            return
        }
        let pages = publishedPages
        var seen: Set<ItemKey> = []
        var items: [RawItem] = []
        for page in pages {
            for item in page.items where seen.insert(item.key).inserted { items.append(item) }
        }
        state.items = try decode(items)
        state.pages = pages.map(\.info)
        state.origin = origin
        publishHead()
    }

    /// Publishes what the collection's head says of the window: total, end, staleness, age.
    func publishHead() {
        if let head = windowHead {
            state.total = head.total
            state.endReached = head.endReached && windowPages.count >= head.currentPageCount
            state.isStale = head.invalidatedAt != nil || publishedPages.contains { $0.info.isStale }
            state.cachedAt = head.refreshedAt
        }
        publish()
    }

    /// Decodes the items, reusing the decoded value of every item whose JSON did not change.
    ///
    /// The memo keeps the window's items only.
    private func decode(_ items: [RawItem]) throws -> [Item] {
        var fresh: [RawItem] = []
        for item in items where decodedItems[item.key]?.json != item.json { fresh.append(item) }
        let decoded = try fresh.decoded(as: Item.self)
        var kept: [ItemKey: (json: Data, item: Item)] = [:]
        kept.reserveCapacity(items.count)
        for (raw, item) in zip(fresh, decoded) { kept[raw.key] = (raw.json, item) }
        var result: [Item] = []
        result.reserveCapacity(items.count)
        for raw in items {
            let entry = kept[raw.key] ?? decodedItems[raw.key]
            if let entry {
                kept[raw.key] = entry
                result.append(entry.item)
            }
        }
        decodedItems = kept
        return result
    }
}
