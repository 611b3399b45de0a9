import Slippers

extension ListSync {
    /// One walk over a list's pages: what it has asked for, read, held and saved, and every
    /// decision it makes on them (what to ask next, when a page is a repeat, a loop, a stall or
    /// the end), none of which does I/O.
    ///
    /// The walk of ``run(limits:refresh:retryBudget:onPage:)`` performs what these say: it starts
    /// the requests ``nextRequest(concurrencyLimit:hasRoom:asksItemBefore:)`` names, hands each
    /// page to ``read(_:at:keepsNoStorePages:)`` and ``settle(_:at:asksItemBeforeNext:readsAgainInReverse:)``,
    /// and saves or holds it.
    struct PageWalk {
        /// The list's key.
        let key: String
        /// The run's limits.
        let limits: SyncRequest.Limits
        /// What a second page that repeats the first means.
        let repeatedSecondPage: RepeatedSecondPage
        /// The pages asked for, and those answered and not read yet.
        var inFlight: PagesInFlight
        /// How pages after the first are asked for with the item before them.
        var overlap = Overlap()
        /// What the run did so far.
        var progress: SyncProgress
        /// The tokens of the pages asked for: a next token met again is a loop.
        var walked: Set<PageToken>
        /// The index the next saved page takes.
        var index: Int
        /// The index of the next page read; the pages before it are saved or held.
        var readIndex: Int
        /// The number of items on a page that is not the last: with a total, the list's page count.
        var pageItemCount: Int?
        /// Pages that brought no new item: saved once a later page brings one.
        var held: [Page<RawItem>] = []
        /// The ids of the held pages.
        var heldKeys: Set<ItemKey> = []
        /// Pages read and not saved yet, while none is held: saved together, in one transaction, when
        /// ``mustSaveUnsaved(after:)`` says so, before the walk waits long or ends.
        var unsaved: [Page<RawItem>] = []
        /// A wait for a page at least this long means a source slower than the saves (``ListSync/longWait``).
        var longWait = Duration.milliseconds(5)
        /// Whether the last wait for a page was long (see ``longWait``): pages read are then saved
        /// before the walk waits again, so that a slow source never keeps them unsaved for long.
        var waitsLong = true
        /// The ids of the page read last, in order.
        var previousKeys: [ItemKey] = []
        /// The first page, while the second may still repeat it.
        var firstPage: Page<RawItem>?
        /// How many times the walk went on from where another process left the cache.
        var restarts = 0
        /// The page being read, not yet counted in the progress.
        var reading = (pages: 0, items: 0)
        /// What the last saved page said of the list: its ids and its total.
        var lastSaved: (keys: Set<ItemKey>, total: Int?)
        /// Whether pages are asked for ahead of the one read: the server may answer them out of order.
        var readsAhead: Bool

        /// A walk from the page at `index`, whose token is `token`, with the tokens walked before it.
        init(
            key: String, limits: SyncRequest.Limits, repeatedSecondPage: RepeatedSecondPage,
            addressable: (any AddressablePageSource)?, readsAhead: Bool, index: Int, token: PageToken?,
            walked: Set<PageToken>, cachedTotal: Int?, cachedItemCount: Int
        ) {
            self.key = key
            self.limits = limits
            self.repeatedSecondPage = repeatedSecondPage
            inFlight = PagesInFlight(addressable: addressable, index: index, token: token)
            progress = SyncProgress(
                startIndex: index, pagesCached: index, itemsCachedBefore: index > 0 ? cachedItemCount : 0,
                total: cachedTotal)
            var walked = walked
            if let token { walked.insert(token) }
            self.walked = walked
            self.index = index
            readIndex = index
            // A resumed run starts from the total the cache holds.
            lastSaved = ([], index > 0 ? cachedTotal : nil)
            self.readsAhead = readsAhead
        }

        // MARK: Asking

        /// Whether the limits let the walk go on reading: fewer pages and items than they allow.
        var isWithinLimits: Bool {
            (limits.maxPages.map { progress.pagesFetched + held.count < $0 } ?? true)
                && (limits.maxItems.map { progress.itemsFetched < $0 } ?? true)
        }

        /// The next page to ask for, and whether with the item before it; `nil` when none may be
        /// asked now: the concurrency, the limits or the known end hold it back.
        ///
        /// - parameter concurrencyLimit: How many pages may be in flight ahead of the one read.
        /// - parameter hasRoom: Whether the run's concurrency has a free slot now.
        /// - parameter asksItemBefore: Whether the source asks for a page's item before with this token.
        mutating func nextRequest(
            concurrencyLimit: Int, hasRoom: () -> Bool, asksItemBefore: (PageToken?) -> Bool
        ) -> (index: Int, token: PageToken?, overlaps: Bool)? {
            // The last page, read alone before the pages between it and the first (see `LastPageFirst`).
            if let first = progress.lastPageFirst, first.isAwaited {
                guard first.lastIndex == nil, hasRoom() else { return nil }
                if let pageCount = inFlight.pageCount, let token = inFlight.askEarly(pageCount - 1) {
                    progress.lastPageFirst?.lastIndex = pageCount - 1
                    return (pageCount - 1, token, false)
                }
                progress.lastPageFirst = nil
            }
            // The next page's token, built once (a source may build a URL for it).
            let nextToken = inFlight.token(at: inFlight.nextIndex)
            guard inFlight.mayAsk(readIndex: readIndex, nextToken: nextToken) else { return nil }
            let ahead = inFlight.pending(after: readIndex)
            guard ahead < concurrencyLimit, hasRoom() else { return nil }
            let pagesSoFar = progress.pagesFetched + held.count + reading.pages + ahead
            if let maxPages = limits.maxPages, pagesSoFar >= maxPages { return nil }
            if let maxItems = limits.maxItems,
                progress.itemsFetched + reading.items + ahead * (pageItemCount ?? 0) >= maxItems
            {
                return nil
            }
            // Without a known end (no total, no page count), one page at a time is asked past the last
            // one read: a full page says nothing of the next, so pages asked further ahead may all lie past
            // the end. A total that comes later lets the walk ask ahead again.
            if inFlight.addressable != nil, inFlight.pageCount == nil, ahead > 0 { return nil }
            // A list that may turn out to be one page asks for its second page alone.
            if case .endsTheList = repeatedSecondPage, ahead > 0, readIndex < 2 { return nil }
            // Until the server has answered a page with the item before it as asked, that page
            // is the only one in flight: a server that cuts the wider request costs one request
            // more, not one for every page in flight, and no page is asked for plainly beside
            // it, its boundary unchecked, while the server may yet honour the request. A source that
            // learnt from that answer that its server refuses the request waits for it all the same:
            // the page read without the item before it has the list's last page read next.
            overlap.askedUnread = overlap.askedUnread.filter { $0 >= readIndex }
            let overlaps =
                overlap.asks && inFlight.nextIndex > 0
                && asksItemBefore(nextToken ?? nil)
            if overlap.asks, !overlap.trusted, !overlap.askedUnread.isEmpty { return nil }
            let (pageIndex, pageToken) = inFlight.ask(token: nextToken ?? nil)
            if overlaps { overlap.askedUnread.insert(pageIndex) }
            return (pageIndex, pageToken, overlaps)
        }

        /// Counts a page's count of pages, or the pages its total makes, as the list's: the pages
        /// asked for ahead stop there.
        mutating func updatePageCount(total: Int?, pages: Int?) {
            if let pages, inFlight.addressable != nil {
                inFlight.pageCount = pages
                return
            }
            guard let addressable = inFlight.addressable, let total, let pageItemCount else { return }
            inFlight.pageCount = addressable.pageCount(forTotal: total, pageItemCount: pageItemCount)
        }

        /// Has the walk read the list's last page before the pages between (see `LastPageFirst`), when
        /// the list's pages are numbered and known, and it is not read in order and again from its end.
        mutating func readLastPageFirst(firstKeys: [ItemKey], readsAgainInReverse: Bool) {
            guard progress.lastPageFirst == nil, readsAhead || !readsAgainInReverse, limits.maxPages == nil,
                limits.maxItems == nil, let pageCount = inFlight.pageCount, pageCount > 2,
                inFlight.pending(after: readIndex) == 0
            else { return }
            progress.lastPageFirst = LastPageFirst(firstKeys: firstKeys, pageItemCount: pageItemCount)
        }

        // MARK: Reading

        /// What a page read means for the walk.
        enum Reading {
            /// The second page listed exactly the first's items, and such a list is one page: the first,
            /// to save again as the last (with `style`, when the list is filed under another).
            case endsAsOnePage(Page<RawItem>, style: String?)
            /// A page to go on with.
            case goesOn(Page<RawItem>)
        }

        /// Reads the page at `pageIndex`: an empty page after the first is the last; a next token
        /// met before is a loop; a page that lists exactly the page before's items is a repeat,
        /// which ends a list of one page or fails; a page the server marked `no-store` stops a
        /// walk that does not keep those.
        ///
        /// - throws: `CacheError` (`tokenDidNotAdvance`, `pageRepeated`), ``NoStorePageError``.
        mutating func read(_ page: Page<RawItem>, at pageIndex: Int, keepsNoStorePages: Bool) throws -> Reading {
            var page = page
            if page.items.isEmpty && pageIndex > 0 { page.nextToken = nil }
            if let next = page.nextToken, !walked.insert(next).inserted {
                throw CacheError.tokenDidNotAdvance(list: key, token: next.rawValue)
            }
            let keys = page.items.map(\.key)
            if !keys.isEmpty, keys == previousKeys {
                guard pageIndex == 1, case .endsTheList(let style) = repeatedSecondPage, var only = firstPage else {
                    throw CacheError.pageRepeated(list: key, index: pageIndex)
                }
                only.nextToken = nil
                return .endsAsOnePage(only, style: style)
            }
            previousKeys = keys
            firstPage = pageIndex == 0 ? page : nil
            if let pages = page.pageCount { progress.announcedPageCount = pages }
            if page.caching.cacheControl.noStore, !keepsNoStorePages {
                throw NoStorePageError(list: key, index: pageIndex)
            }
            return .goesOn(page)
        }

        /// What the list announced, applied to the page at `pageIndex`: the page its total or page
        /// count puts last is the last, and a list that announced pages and no total, ending short
        /// of them, is given the fewest items those pages hold (the cache then knows it is incomplete).
        ///
        /// - parameter asksItemBeforeNext: Whether the source asks for the next page with the item before it (read for
        ///   the first page only).
        mutating func settle(
            _ page: inout Page<RawItem>, at pageIndex: Int, asksItemBeforeNext: Bool, readsAgainInReverse: Bool
        ) {
            if page.nextToken != nil {
                if pageItemCount == nil, !page.items.isEmpty { pageItemCount = page.items.count }
                updatePageCount(total: page.total, pages: page.pageCount)
                if pageIndex == 0, !asksItemBeforeNext {
                    readLastPageFirst(firstKeys: page.items.map(\.key), readsAgainInReverse: readsAgainInReverse)
                }
                // A total says where the list ends: the page it puts last is, whatever its next token says.
                if let pageCount = inFlight.pageCount, pageIndex + 1 >= pageCount { page.nextToken = nil }
            }
            if page.nextToken == nil, page.total == nil, lastTotal == nil,
                let announced = progress.announcedPageCount, pageIndex + 1 < announced,
                let size = pageItemCount ?? firstPage?.items.count
            {
                page.total = (announced - 1) * size + 1
            }
        }

        /// Holds a page that brought no new item, to save with the next page that does.
        ///
        /// - throws: `CacheError.listStalled` once ``Slippers/SyncRequest/Limits/pagesWithoutNewItems`` pages in a row are held: a
        ///   server that repeats itself for ever ends with nothing of it committed.
        mutating func hold(_ page: Page<RawItem>, keys: Set<ItemKey>) throws {
            held.append(page)
            heldKeys.formUnion(keys)
            guard held.count < limits.pagesWithoutNewItems else {
                throw CacheError.listStalled(list: key, pages: held.count)
            }
        }

        // MARK: Saving

        /// The most pages saved in one transaction.
        static var maxUnsaved: Int { 8 }

        /// Whether the pages read and not saved yet are saved now, `page` the last of them: a last
        /// page, a full batch, a walk with limits (which count saved pages), or a source slower than
        /// the saves.
        func mustSaveUnsaved(after page: Page<RawItem>) -> Bool {
            page.isLast || unsaved.count >= Self.maxUnsaved || limits.maxPages != nil || limits.maxItems != nil
                || waitsLong
        }

        /// The total the list announced last, on a page saved or read and not saved yet.
        var lastTotal: Int? {
            unsaved.last(where: { $0.total != nil })?.total ?? progress.total
        }

        /// Counts a page saved at ``index`` with the head the cache answered, and what it says of a
        /// list that moves.
        mutating func recordSaved(_ page: Page<RawItem>, head: ListHead) {
            index += 1
            // A walk that read the last page first read the pages out of order.
            noteMoves(
                of: page, repeated: head.repeatedItemCount, readsAhead: readsAhead || progress.lastPageFirst != nil)
            progress.pagesFetched += 1
            progress.itemsFetched += page.items.count - head.repeatedItemCount
            progress.repeatedItems += head.repeatedItemCount
            progress.pagesCached = head.currentPageCount
            progress.total = head.total
            progress.endReached = head.endReached
        }

        /// Records what a saved page says of a list that moves: an id an earlier page listed (the list
        /// moved down), a total that changed (items came or went).
        mutating func noteMoves(of page: Page<RawItem>, repeated: Int, readsAhead: Bool) {
            let keys = Set(page.items.map(\.key))
            let repeatedOnThePage = page.items.count - keys.count
            let movedDown = repeated > repeatedOnThePage
            let totalChanged = page.total != nil && lastSaved.total != nil && page.total != lastSaved.total
            if movedDown { progress.movedDown = true }
            if movedDown || totalChanged {
                progress.listMoved = true
                // Read in order, a list that moved down at this page's boundary hid nothing there;
                // read out of order, any move may have.
                let overlaps = !keys.isDisjoint(with: lastSaved.keys)
                if readsAhead || (totalChanged && !overlaps) { progress.mayHaveMissedItems = true }
            }
            lastSaved = (keys, page.total ?? lastSaved.total)
        }

        /// Goes on from where the cache now stands, after another process started the list again:
        /// its next page `index`, its resume `token`, the tokens walked before them.
        mutating func restart(
            at index: Int, token: PageToken?, walked: Set<PageToken>, addressable: (any AddressablePageSource)?
        ) {
            restarts += 1
            (held, heldKeys, previousKeys, unsaved) = ([], [], [], [])
            self.index = index
            self.walked = walked
            if let token { self.walked.insert(token) }
            inFlight.restart(addressable: addressable, index: index, token: token)
            progress.lastPageFirst = nil
            readIndex = index
        }
    }
}
