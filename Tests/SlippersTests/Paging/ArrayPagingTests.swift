import Slippers
import Testing

@Suite struct ArrayPagingTests {
    let numbers = Array(1...5)

    @Test func servesFullPagesAndAPartialLastPage() {
        #expect(Array(numbers.page(1, size: 2)) == [1, 2])
        #expect(Array(numbers.page(2, size: 2)) == [3, 4])
        #expect(Array(numbers.page(3, size: 2)) == [5])
        #expect(numbers.pageCount(size: 2) == 3)
    }

    @Test func respectsTheFirstPageIndex() {
        #expect(Array(numbers.page(0, size: 2, firstPage: 0)) == [1, 2])
        #expect(Array(numbers.page(2, size: 2, firstPage: 0)) == [5])
    }

    @Test(arguments: [-1, 0, 4, 100])
    func outOfRangePagesAreEmpty(page: Int) {
        #expect(numbers.page(page, size: 2).isEmpty)
    }

    @Test func anEmptyArrayHasNoPages() {
        #expect([Int]().page(1, size: 3).isEmpty)
        #expect([Int]().pageCount(size: 3) == 0)
    }

    @Test func walksToTheEndAsAPageSource() async throws {
        let source = Array(1...7).pageSource(pageSize: 3)
        var request = PageRequest.first
        var seen: [Int] = []
        var pages = 0
        while true {
            let page = try #require(try await source.fetch(request).page)
            seen += page.items
            pages += 1
            #expect(page.total == 7)
            guard let next = page.nextToken else { break }
            request = PageRequest(token: next)
        }
        #expect(seen == Array(1...7))
        #expect(pages == 3)
    }

    @Test func anEmptySourceHasOneEmptyLastPage() async throws {
        let page = try #require(try await [Int]().pageSource(pageSize: 3).fetch(.first).page)
        #expect(page.items.isEmpty)
        #expect(page.isLast)
    }

    @Test func rejectsATokenThatIsNotAPageNumber() async {
        await #expect(throws: ArrayPageSource<Int>.InvalidToken.self) {
            try await numbers.pageSource(pageSize: 2).fetch(PageRequest(token: "abc"))
        }
    }
}
