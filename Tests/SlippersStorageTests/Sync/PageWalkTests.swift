import Foundation
import Slippers
import Testing

@testable import SlippersStorage

/// The decisions of a walk, as values: what each page read means (the end, a loop, a repeat, a
/// page not to cache), when held pages are a stall, where an announced end puts the last page,
/// what may be asked next, and what a saved page says of a list that moves. No I/O.
@Suite struct PageWalkTests {
    typealias Walk = ListSync<AnyPageSource<RawItem>>.PageWalk

    static func walk(
        limits: SyncRequest.Limits = .init(),
        repeated: ListSync<AnyPageSource<RawItem>>.RepeatedSecondPage = .fails, index: Int = 0
    ) -> Walk {
        Walk(
            key: "list", limits: limits, repeatedSecondPage: repeated, addressable: nil, readsAhead: false,
            index: index, token: nil, walked: [], cachedTotal: nil, cachedItemCount: 0)
    }

    static func page(_ ids: some Sequence<Int>, next: Int? = nil, total: Int? = nil, pages: Int? = nil) -> Page<RawItem>
    {
        Page(
            items: ids.map { RawItem(key: .integer($0), json: Data(#"{"id":\#($0)}"#.utf8)) },
            nextToken: next.map { PageToken($0) }, total: total, pageCount: pages)
    }

    /// The outcome of reading pages in order: `nil` for a page the walk goes on with, else its word.
    static func outcomes(
        _ pages: [Page<RawItem>], repeated: ListSync<AnyPageSource<RawItem>>.RepeatedSecondPage = .fails,
        keepsNoStore: Bool = false
    ) -> [String] {
        var walk = walk(repeated: repeated)
        var said: [String] = []
        for (index, page) in pages.enumerated() {
            do {
                switch try walk.read(page, at: index, keepsNoStorePages: keepsNoStore) {
                case .goesOn(let read): said.append(read.nextToken == nil ? "last" : "on")
                case .endsAsOnePage(let only, _): said.append(only.nextToken == nil ? "one page" : "?")
                }
            } catch let error as CacheError {
                said.append("\(error.code)")
            } catch {
                said.append("\(type(of: error))")
            }
        }
        return said
    }

    @Test(arguments: [
        // Pages that go on, then an empty one: the empty page after the first is the last.
        ([page(1...2, next: 2), page(3...4, next: 3), page(1..<1, next: 4)], "on on last"),
        // A next token met again is a loop.
        ([page(1...2, next: 2), page(3...4, next: 2)], "on tokenDidNotAdvance"),
        // A page that lists exactly the page before's items is a repeat.
        ([page(1...2, next: 2), page(3...4, next: 3), page(3...4, next: 4)], "on on pageRepeated"),
        ([page(1...2, next: 2), page(1...2, next: 3)], "on pageRepeated"),
    ])
    func eachPageReadIsTheEndALoopARepeatOrGoesOn(pages: [Page<RawItem>], said: String) {
        #expect(Self.outcomes(pages).joined(separator: " ") == said)
    }

    @Test func aSecondPageRepeatingTheFirstEndsAListThatMayBeOnePage() {
        let pages = [Self.page(1...2, next: 2), Self.page(1...2, next: 3)]
        #expect(Self.outcomes(pages, repeated: .endsTheList(style: nil)) == ["on", "one page"])
        // A third page that repeats the second is no list of one page.
        let three = [Self.page(1...2, next: 2), Self.page(3...4, next: 3), Self.page(3...4, next: 4)]
        #expect(Self.outcomes(three, repeated: .endsTheList(style: nil)) == ["on", "on", "pageRepeated"])
    }

    @Test func aPageMarkedNoStoreStopsAWalkThatDoesNotKeepThem() {
        var page = Self.page(1...2, next: 2)
        page.caching = PageCaching(cacheControl: CacheControl(noStore: true))
        #expect(Self.outcomes([page]) == ["NoStorePageError"])
        #expect(Self.outcomes([page], keepsNoStore: true) == ["on"])
    }

    @Test(arguments: [1, 2, 3, 5])
    func heldPagesAreAStallAtTheLimit(stallLimit: Int) {
        var walk = Self.walk(limits: .init(stallLimit: stallLimit))
        var stalledAt: Int?
        for held in 1...6 where stalledAt == nil {
            do {
                try walk.hold(Self.page(1...2, next: held + 1), keys: [.integer(1), .integer(2)])
            } catch let error as CacheError where error.code == .listStalled {
                stalledAt = held
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(stalledAt == stallLimit)
    }

    @Test(
        arguments: [
            // (page index, next token, announced pages, total): the settled page's next and total.
            (0, 1, nil, nil, "next 1, total nil"),
            // Pages announced and no total: a list that ends short of them is given the fewest items
            // those pages hold, so the cache knows it is incomplete.
            (1, nil, 5, nil, "next nil, total 9"),
            (4, nil, 5, nil, "next nil, total nil"),
            // A total keeps its own.
            (1, nil, 5, 40, "next nil, total 40"),
        ] as [(Int, Int?, Int?, Int?, String)])
    func anAnnouncedEndSettlesThePage(index: Int, next: Int?, pages: Int?, total: Int?, settled: String) {
        var walk = Self.walk()
        walk.progress.announcedPageCount = pages
        walk.pageItemCount = 2
        var page = Self.page(1...2, next: next, total: total, pages: pages)
        walk.settle(&page, at: index, asksItemBeforeNext: true, readsAgainInReverse: false)
        let text = "next \(page.nextToken?.rawValue ?? "nil"), total \(page.total.map(String.init) ?? "nil")"
        #expect(text == settled)
    }

    @Test func aSourceThatNamesOnlyTheNextPageIsAskedOnePageAtATime() {
        var walk = Self.walk()
        let first = walk.nextRequest(concurrencyLimit: 4, hasRoom: { true }, asksItemBefore: { _ in false })
        #expect(first?.index == 0)
        // Page 2's token is not known until page 1 is read.
        let early = walk.nextRequest(concurrencyLimit: 4, hasRoom: { true }, asksItemBefore: { _ in false })
        #expect(early == nil)
        let followsOn = walk.inFlight.announce(next: PageToken(2), after: 0)
        #expect(followsOn)
        walk.readIndex = 1
        let second = walk.nextRequest(concurrencyLimit: 4, hasRoom: { true }, asksItemBefore: { _ in true })
        #expect(second?.index == 1)
        #expect(second?.token == PageToken(2))
        #expect(second?.overlaps == true)
    }

    @Test func theLimitsAndTheConcurrencyHoldRequestsBack() {
        var limited = Self.walk(limits: .init(maxPages: 1))
        limited.progress.pagesFetched = 1
        #expect(!limited.isWithinLimits)
        let beyond = limited.nextRequest(concurrencyLimit: 4, hasRoom: { true }, asksItemBefore: { _ in false })
        #expect(beyond == nil)
        var full = Self.walk()
        let crowded = full.nextRequest(concurrencyLimit: 4, hasRoom: { false }, asksItemBefore: { _ in false })
        #expect(crowded == nil)
    }

    @Test(
        arguments: [
            // (ids saved before, ids on the page, repeated ids the cache counted, totals): moved down, missed.
            ([1, 2], [3, 4], 0, (10, 10), false, false),
            // An id an earlier page listed: the list moved down; read in order, nothing was hidden.
            ([1, 2], [2, 3], 1, (10, 10), true, false),
            // A total that changed with pages that do not meet: items may have been missed.
            ([1, 2], [5, 6], 0, (10, 11), false, true),
        ] as [([Int], [Int], Int, (Int, Int), Bool, Bool)])
    func aSavedPageSaysWhetherTheListMoved(
        before: [Int], ids: [Int], repeated: Int, totals: (Int, Int), movedDown: Bool, missed: Bool
    ) {
        var walk = Self.walk()
        walk.lastSaved = (Set(before.map { ItemKey.integer($0) }), totals.0)
        let page = Page(
            items: ids.map { RawItem(key: .integer($0), json: Data("{}".utf8)) }, total: totals.1)
        walk.noteMoves(of: page, repeated: repeated, readsAhead: false)
        #expect(walk.progress.movedDown == movedDown)
        #expect(walk.progress.listMoved == (movedDown || totals.0 != totals.1))
        #expect(walk.progress.mayHaveMissedItems == missed)
    }
}
