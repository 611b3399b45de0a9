import Foundation
import Slippers
import SlippersStorage

/// The window: the pages the pager publishes, a prefix of the cached list.
///
/// The window is read through each page's key and published from memory, so
/// a snapshot costs what the window holds, never what the whole cache holds.
extension Pager {
    /// Reads the first `pageCount` cached pages into the window (fewer when fewer are cached).
    func readWindow(pageCount: Int) throws {
        let window = try cache.window(list.key, pages: 0..<pageCount)
        windowPages = window?.pages ?? []
        windowHead = window?.head
        publishedThrough = nil
        windowGaps = window == nil ? [] : try cache.gaps(in: list.key)
        windowIsFeed = try window?.head.endReached == false && cache.newestFirst(list.key) == true
    }

    /// Grows the window by the cached page after it, when there is one.
    func appendCachedPageToWindow() throws {
        let index = windowPages.count
        guard let window = try cache.window(list.key, pages: index..<index + 1) else { return }
        try appendToWindow(window)
    }

    /// Grows the window by the page of `window`, a read of the page after it, when it holds one.
    func appendToWindow(_ window: CachedWindow) throws {
        let index = windowPages.count
        guard let page = window.pages.first, page.info.index == index else { return }
        if let windowHead, window.head.generation == windowHead.generation {
            windowPages.append(page)
            self.windowHead = window.head
        } else {
            // A refresh, here or in another process, started a generation since the window was read:
            // whether each page read earlier is superseded changed with it.
            try readWindow(pageCount: index + 1)
        }
    }

    /// Puts the page just saved at `index` into the window without reading the window's other pages again.
    ///
    /// The cache keeps one row per item, so the saved page's JSON is every
    /// copy's: an item it shares with an earlier page of the window takes it
    /// there too. The whole window is read again instead when a generation
    /// started meanwhile (here or in another process), when the save ended the
    /// list (it removed the pages after it), or when `index` is past the window.
    func placeSavedPage(at index: Int) throws {
        guard index <= windowPages.count, let windowHead,
            let window = try cache.window(list.key, pages: index..<index + 1),
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
                if let json = latest[windowPages[pageIndex].items[itemIndex].key],
                    json != windowPages[pageIndex].items[itemIndex].json
                {
                    windowPages[pageIndex].items[itemIndex].json = json
                    publishedThrough = nil
                }
            }
        }
        if index == windowPages.count {
            windowPages.append(page)
        } else {
            windowPages[index] = page
            publishedThrough = nil
        }
        self.windowHead = window.head
    }

    /// The pages of the window that are published: all of them, or the current ones when the cache is not read.
    private var publishedPages: ArraySlice<StoredPage> {
        policy.readsCache ? windowPages[...] : windowPages.prefix { !$0.info.isSuperseded }
    }

    /// The `maxAge` of the policy, which stands for the lifetime of pages whose server gave none.
    var policyMaxAge: TimeInterval? {
        if case .cacheFirst(let maxAge) = policy { return maxAge }
        return nil
    }

    /// Whether a cached page must be revalidated before it counts as settled.
    ///
    /// Of an older generation, marked unverified by a refresh, withheld (another
    /// account's), no longer decodable and not fetched again yet; or, unless the
    /// network confirmed it in this session, `no-cache` or past its lifetime (or the
    /// policy's `maxAge`).
    func needsNetwork(_ page: PageInfo, at now: Date) -> Bool {
        guard policy.usesNetwork else { return false }
        if undecodable[page.index] == false || !isServable(page) { return true }
        if page.isSuperseded || page.isUnverified { return true }
        // Below a feed's head, pages only grow (a head merge, a gap filled): they are not asked for again.
        if windowIsFeed, page.index > 0 { return false }
        // Confirmed in this session: shown as it is until a refresh, whatever its lifetime.
        if verifiedThisSession.contains(page.index) { return false }
        if page.requiresRevalidation { return true }
        if let expiresAt = page.expiresAt(maxAge: policyMaxAge) { return now >= expiresAt }
        return false
    }

    /// Whether a cached page may be shown to this pager's requests.
    ///
    /// Not a page whose response varied on `*`, nor — unless the account is declared — one
    /// that varied on a request header this source sends with another value.
    /// A page fetched in this session always may.
    func isServable(_ page: PageInfo) -> Bool {
        if verifiedThisSession.contains(page.index), !page.isSuperseded, !page.isUnverified { return true }
        if page.vary.contains("*") { return false }
        guard !account.isDeclared, !page.vary.isEmpty else { return true }
        return sourceVaryKey(for: page.vary) == page.varyKey
    }

    /// The source's fingerprint for the headers `names` as the file stores it, computed once per set of names.
    private func sourceVaryKey(for names: [String]) -> String? {
        if let known = sourceVaryKeys[names] { return known }
        let key = cache.headerFingerprintKey?.fingerprint(source.varyKey(for: names))
        sourceVaryKeys[names] = .some(key)
        return key
    }

    /// The index of the first page of the window that must be revalidated, if any.
    func firstUnsettledIndex(at now: Date) -> Int? {
        publishedPages.firstIndex { needsNetwork($0.info, at: now) }
    }

    /// Keeps the items a replaced page pushed down, so that they stay published until the page that now holds them is.
    ///
    /// The candidates are the leftovers of the page before and the replaced
    /// copy's items; those after the last one the new page still lists are
    /// kept (items before it were removed or moved up, and are not kept).
    func keepLeftovers(ofPageAt index: Int, replacedBy items: [RawItem]) {
        var candidates = index > 0 && leftoversAfter == index - 1 ? leftovers : []
        if index < windowPages.count { candidates += windowPages[index].items }
        let kept = Set(items.map(\.key))
        let lastKept = candidates.lastIndex { kept.contains($0.key) }
        if !leftovers.isEmpty || lastKept.map({ $0 + 1 < candidates.count }) ?? !candidates.isEmpty {
            publishedThrough = nil
        }
        leftovers = Array(candidates[(lastKept.map { $0 + 1 } ?? 0)...])
        leftoversAfter = index
    }

    /// Drops the leftovers shown after the page at `index`: the page after it did not change, so they were removed.
    func dropLeftovers(after index: Int) {
        guard leftoversAfter == index, !leftovers.isEmpty else { return }
        leftovers = []
        publishedThrough = nil
    }

    /// Publishes the window after its last page was appended, adding that page alone when everything
    /// before it is published as it is: growing a long window costs its new page, not the whole window.
    func publishAppendedPage(provenance: Provenance) throws {
        let count = windowPages.count
        guard let through = publishedThrough, through == count - 1, let page = windowPages.last,
            !windowGaps.contains(where: { $0.pageIndex == page.info.index }),
            page.info.index == through, windowHead != nil, policy.readsCache || !page.info.isSuperseded,
            leftovers.isEmpty || leftoversAfter < through
        else {
            try publishWindow(provenance: provenance)
            return
        }
        let now = clock()
        let servable = isServable(page.info)
        var added: [RawItem] = []
        added.reserveCapacity(page.items.count)
        for item in page.items where servable && publishedKeys.insert(item.key).inserted { added.append(item) }
        let fresh = added.filter { decodedItems[$0.key]?.json != $0.json }
        if let decoded = try? fresh.decoded(as: Item.self, logger: cache.logger) {
            for (raw, item) in zip(fresh, decoded) { decodedItems[raw.key] = (raw.json, item) }
            state.items += added.compactMap { decodedItems[$0.key]?.item }
        } else {
            if undecodable[page.info.index] == nil { undecodable[page.info.index] = false }
            recordDecodingFailure(of: page)
        }
        state.pages.append(page.info)
        state.pageProvenances.append(pageOrigin(page.info, at: now))
        if undecodable[page.info.index] != nil { state.undecodablePages.append(page.info.index) }
        if state.settledPageCount == through, !needsNetwork(page.info, at: now) { state.settledPageCount += 1 }
        if servable { state.locallyEditedKeys.formUnion(page.editedKeys) }
        state.provenance = provenance
        publishedThrough = count
        publishHead()
    }

    /// Publishes the window: its pages, their items (each id once, its first occurrence wins) and its head.
    ///
    /// A page whose items no longer decode is left out, not the whole window:
    /// its index is in ``State/undecodablePages``.
    func publishWindow(provenance: Provenance) throws {
        guard windowHead != nil else {
            publish()
            return
        }
        let pages = publishedPages
        let now = clock()
        if leftoversAfter + 1 >= pages.count, state.endReached || windowHead?.endReached == true {
            leftovers = []
        }
        var seen: Set<ItemKey> = []
        var pageItems: [[RawItem]] = []
        pageItems.reserveCapacity(pages.count)
        for page in pages {
            var items: [RawItem] = []
            items.reserveCapacity(page.items.count)
            // A page for other header values is withheld: as if it were not cached.
            let servable = isServable(page.info)
            for item in page.items where servable && seen.insert(item.key).inserted { items.append(item) }
            if page.info.index == leftoversAfter, !leftovers.isEmpty {
                for item in leftovers where seen.insert(item.key).inserted { items.append(item) }
            }
            pageItems.append(items)
        }
        var kept: [ItemKey: (json: Data, item: Item)] = [:]
        var decoded: [Item] = []
        if let all = try? decode(pageItems.flatMap { $0 }, into: &kept) {
            decoded = all
            undecodable = [:]
            decodingFailures = [:]
        } else {
            // Model drift: find the pages that no longer decode, and publish the others.
            kept = [:]
            for (page, items) in zip(pages, pageItems) {
                if let values = try? decode(items, into: &kept) {
                    decoded += values
                    if undecodable[page.info.index] == true { undecodable[page.info.index] = nil }
                    decodingFailures[page.info.index] = nil
                } else {
                    if undecodable[page.info.index] == nil { undecodable[page.info.index] = false }
                    recordDecodingFailure(of: page)
                }
            }
        }
        decodedItems = kept
        publishedKeys = seen
        state.gaps = gaps(of: pages, shown: pageItems.flatMap { $0 }.filter { kept[$0.key] != nil })
        publishedThrough = pages.count == windowPages.count ? pages.count : nil
        state.items = decoded
        state.pages = pages.map(\.info)
        state.pageProvenances = pages.map { pageOrigin($0.info, at: now) }
        state.undecodablePages = pages.map(\.info.index).filter { undecodable[$0] != nil }
        state.locallyEditedKeys = pages.reduce(into: Set<ItemKey>()) { keys, page in
            if !page.editedKeys.isEmpty, isServable(page.info) { keys.formUnion(page.editedKeys) }
        }
        state.settledPageCount = pages.prefix { !needsNetwork($0.info, at: now) }.count
        state.provenance = provenance
        publishHead()
    }

    /// The window's gaps, each after the published item above it.
    private func gaps(of pages: some Collection<StoredPage>, shown: [RawItem]) -> [Gap] {
        guard !windowGaps.isEmpty else { return [] }
        var indexOf: [ItemKey: Int] = [:]
        for (index, item) in shown.enumerated() where indexOf[item.key] == nil { indexOf[item.key] = index }
        return windowGaps.compactMap { gap in
            guard let page = pages.first(where: { $0.info.index == gap.pageIndex }) else { return nil }
            let above =
                gap.afterPosition >= 0 && gap.afterPosition < page.items.count ? page.items[gap.afterPosition] : nil
            let afterIndex = above.flatMap { indexOf[$0.key] } ?? -1
            return Gap(id: gap.id, afterIndex: afterIndex, itemCount: gap.itemCount)
        }
    }

    /// Where a page of the window came from.
    private func pageOrigin(_ page: PageInfo, at now: Date) -> PageProvenance {
        if verifiedThisSession.contains(page.index), !page.isSuperseded, !page.isUnverified { return .network }
        if page.isWithinLifetime(at: now, maxAge: policyMaxAge) { return .fresh }
        return .cache
    }

    /// Publishes what the list's head says of the window: total, end, whether unverified, age.
    func publishHead() {
        if let head = windowHead {
            state.total = head.total
            state.endReached = head.endReached && windowPages.count >= head.currentPageCount
            state.isUnverified =
                head.invalidatedAt != nil || publishedPages.contains { $0.info.isSuperseded || $0.info.isUnverified }
            state.cachedAt = head.refreshedAt
        }
        publish()
    }

    /// Records why `page` does not decode: the first of its items that fails, and the member.
    private func recordDecodingFailure(of page: StoredPage) {
        for (position, raw) in page.items.enumerated() {
            do {
                _ = try ItemDecoder.decode(Item.self, from: raw.json, logger: cache.logger)
            } catch {
                decodingFailures[page.info.index] = .itemsDoNotDecode(
                    pageIndex: page.info.index, itemIndex: position, itemType: String(describing: Item.self),
                    error: error)
                return
            }
        }
    }

    /// Decodes the items, reusing the decoded value of every item whose JSON did not change; adds them to `kept`.
    private func decode(_ items: [RawItem], into kept: inout [ItemKey: (json: Data, item: Item)]) throws -> [Item] {
        var fresh: [RawItem] = []
        for item in items where decodedItems[item.key]?.json != item.json { fresh.append(item) }
        let decoded = try fresh.decoded(as: Item.self, logger: cache.logger)
        var added: [ItemKey: (json: Data, item: Item)] = [:]
        added.reserveCapacity(fresh.count)
        for (raw, item) in zip(fresh, decoded) { added[raw.key] = (raw.json, item) }
        var result: [Item] = []
        result.reserveCapacity(items.count)
        for raw in items {
            if let entry = added[raw.key] ?? decodedItems[raw.key] {
                kept[raw.key] = entry
                result.append(entry.item)
            }
        }
        return result
    }
}
