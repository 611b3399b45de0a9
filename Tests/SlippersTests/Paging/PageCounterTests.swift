import Slippers
import Synchronization
import Testing

/// Records the pages a pager asks for.
final class PageLog: Sendable {
    private let pages = Mutex<[Int]>([])
    func append(_ page: Int) { pages.withLock { $0.append(page) } }
    var all: [Int] { pages.withLock { $0 } }
}

@Suite struct PageCounterTests {
    @Test func startsOnTheFirstPageWhichIsOneByDefault() {
        let pager = PageCounter { _ in }
        #expect(pager.firstPage == 1)
        #expect(pager.page == 1)
    }

    @Test func callsOnPageUpdateExactlyOncePerChange() {
        let log = PageLog()
        let pager = PageCounter { log.append($0) }
        pager.fetchPage()
        pager.nextPage()
        pager.nextPage()
        #expect(log.all == [1, 2, 3])
        #expect(pager.page == 3)
    }

    @Test func refreshGoesBackToTheFirstPage() {
        let log = PageLog()
        let pager = PageCounter(firstPage: 0) { log.append($0) }
        pager.nextPage()
        pager.nextPage()
        pager.refresh()
        #expect(log.all == [1, 2, 0])
        #expect(pager.page == 0)
    }

    @Test func worksThroughTheProtocols() throws {
        let log = PageLog()
        let pager = PageCounter { log.append($0) }
        let pageable: any Pageable = pager
        let refreshable: any Refreshable = pager
        pageable.nextPage()
        try refreshable.refresh()
        #expect(log.all == [2, 1])
    }

    @Test func concurrentNextPagesEachGetTheirOwnPage() async {
        let log = PageLog()
        let pager = PageCounter { log.append($0) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 { group.addTask { pager.nextPage() } }
        }
        #expect(log.all.sorted() == Array(2...101))
        #expect(pager.page == 101)
    }
}
